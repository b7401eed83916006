import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { AcceptedPostback, OfferwallPostbacksAccepted, SIGNUP_BONUS_POINTS } from '@esim/contracts';
import { UnitOfWork } from '@esim/platform';
import { waitFor } from '@esim/testing';
import { BalanceAnnouncements } from '../../services/rewards/src/ledger/balance-announcements';
import { Ledger } from '../../services/rewards/src/ledger/ledger';
import { signUp, SignedUpUser } from '../support/accounts';
import { wcagViolations } from '../support/axe';
import { expectVisible, launchBrowser, PHONE, signInThroughForm } from '../support/browser';
import type { HttpClient } from '../support/http-client';
import { startSystem, System } from '../support/system';
import { publishEvent } from '../live/live-support';

/**
 * Held credits and reversals in the real web app, phone-sized, in English and Urdu (right to
 * left): the dashboard and /history with points pending and when they become spendable, a
 * reversal with the wall, offer and reason, and a balance below zero explained; axe-core finds no
 * WCAG A/AA violation on either page. Credits of 500 points or more are held for a day; Torox's
 * are never held. Needs `npm run build -w @esim/frontend` first.
 */
describe('web app: held credits and reversals explained', () => {
  let sys: System;
  let browser: Browser;
  let ana: SignedUpUser & { client: HttpClient };

  const accepted = (userId: string, over: Partial<AcceptedPostback>): AcceptedPostback => {
    const transactionId = over.transactionId ?? `tx-${randomUUID().slice(0, 8)}`;
    return { deliveryId: randomUUID(), provider: 'cpx', action: 'credit', transactionId, creditTransactionId: transactionId, userId, points: 120, taskType: 'offer_completion', ...over };
  };
  const deliver = (...postbacks: AcceptedPostback[]) => publishEvent(sys, OfferwallPostbacksAccepted, { postbacks, acceptedAt: new Date().toISOString() });
  const userView = async () => (await ana.client.get('/api/user')).json();

  /** A phone-sized page signed in as Ana in `locale`; CSP bypassed for axe-core. */
  async function signedIn(locale: string): Promise<Page> {
    const context = await browser.newContext({ ...PHONE, baseURL: sys.url, locale, bypassCSP: true, serviceWorkers: 'block' });
    const page = await context.newPage();
    await signInThroughForm(page, ana);
    return page;
  }

  beforeAll(async () => {
    sys = await startSystem({ serveSpa: true, env: { CREDIT_HOLD_MIN_POINTS: '500', CREDIT_HOLD_SECONDS: '86400', TOROX_HOLD_SECONDS: '0' } });
    const client = sys.client();
    ana = { ...(await signUp(client, sys.mail, { name: 'Ana Held' })), client };
    await waitFor(async () => (await userView()).points === SIGNUP_BONUS_POINTS, { what: 'the sign-up bonus' });

    // Spendable 300 from Torox, spent at once (a reservation posted, as a delivered redemption does)…
    const torox = accepted(ana.id, { provider: 'torox', points: 300, offerName: 'Puzzle Quest' });
    await deliver(torox);
    await waitFor(async () => (await userView()).points === SIGNUP_BONUS_POINTS + 300, { what: 'the Torox credit' });
    const rewards = sys.apps.rewards!;
    await rewards.get(UnitOfWork).run(async (tx) => {
      const ledger = rewards.get(Ledger);
      const r = await ledger.reserve(tx.manager, { userId: ana.id, amount: SIGNUP_BONUS_POINTS + 300, reference: randomUUID() });
      await ledger.post(tx.manager, r.id);
      await rewards.get(BalanceAnnouncements).announce(tx, [ana.id]);
    });
    // …then taken back by Torox: the balance goes below zero. A CPX credit of 800 waits; BitLabs' 600 is reversed while it waits.
    const held = accepted(ana.id, { points: 800, offerName: 'Phone survey' });
    const cancelled = accepted(ana.id, { provider: 'bitlabs', points: 600, offerName: 'Casino level 20' });
    await deliver(held, cancelled);
    await deliver(
      { ...torox, deliveryId: randomUUID(), action: 'reverse', transactionId: `${torox.transactionId}-r`, reversalReason: 'Chargeback' },
      { ...cancelled, deliveryId: randomUUID(), action: 'reverse', transactionId: `${cancelled.transactionId}-r`, reversalReason: 'Duplicate account' },
    );
    await waitFor(async () => {
      const v = await userView();
      return v.points === -300 && v.pendingPoints === 800;
    }, { what: 'the held credit and both reversals' });
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await sys?.stop();
  });

  it('shows the pending points, their release, the striped progress and the explained negative balance on the dashboard (en)', async () => {
    const page = await signedIn('en');
    await page.goto('/dashboard?lng=en');
    await expectVisible(page.getByTestId('held-points'));
    await expectVisible(page.getByRole('heading', { name: '800 MB pending' }));
    await expectVisible(page.getByText(/^800 MB on /));
    await expectVisible(page.getByTestId('progress-pending').first());
    await expect(page.getByRole('progressbar').first().getAttribute('aria-valuetext')).resolves.toBe('0% complete, 800 MB more pending');
    const note = page.getByRole('note').filter({ hasText: 'Your balance is below zero' });
    await expectVisible(note);
    await expectVisible(note.getByRole('link', { name: 'Complete offers' }));
    await expect(page.getByTestId('points-balance').textContent()).resolves.toBe('-300 MB');
    expect(await wcagViolations(page)).toEqual([]);
  });

  it('lists the held credit with its date, and each reversal with its wall, offer and reason on /history (en), keyboard reachable', async () => {
    const page = await signedIn('en');
    await page.goto('/history?lng=en');
    const entries = page.getByTestId('statement-entry');
    await expectVisible(entries.first());
    const held = entries.filter({ hasText: 'Offer: Phone survey' });
    await expectVisible(held.getByText(/^Available on /));
    await expectVisible(held.getByText('Pending'));
    const cancelled = entries.filter({ hasText: 'Reason given by BitLabs: Duplicate account' });
    await expectVisible(cancelled.getByText('Offer: Casino level 20'));
    await expectVisible(cancelled.getByText('Cancelled while pending: nothing to pay back.'));
    const takenBack = entries.filter({ hasText: 'Reason given by Torox: Chargeback' });
    await expectVisible(takenBack.getByText('Taken back from your balance.'));
    await expectVisible(takenBack.getByText('−300 points'));
    await expectVisible(page.getByRole('note').filter({ hasText: 'Your balance is below zero' }));
    // The way out of the explanation is reachable by keyboard.
    const cta = page.getByRole('link', { name: 'Complete offers' });
    for (let i = 0; i < 40 && !(await cta.evaluate((el) => el === (el.ownerDocument as { activeElement: unknown }).activeElement)); i++) await page.keyboard.press('Tab');
    await expect(cta.evaluate((el) => el === (el.ownerDocument as { activeElement: unknown }).activeElement)).resolves.toBe(true);
    expect(await wcagViolations(page)).toEqual([]);
  });

  it('says the same in Urdu, right to left, on the dashboard and /history', async () => {
    const page = await signedIn('ur');
    await page.goto('/dashboard?lng=ur');
    await expect(page.locator('html').getAttribute('dir')).resolves.toBe('rtl');
    await expectVisible(page.getByTestId('held-points'));
    await expectVisible(page.getByRole('note').filter({ hasText: 'آپ کا بیلنس صفر سے کم ہے' }));
    expect(await wcagViolations(page)).toEqual([]);

    await page.goto('/history?lng=ur');
    await expectVisible(page.getByTestId('statement-entry').filter({ hasText: 'زیر التوا رہتے ہوئے منسوخ: کچھ واپس نہیں کرنا۔' }));
    expect(await wcagViolations(page)).toEqual([]);
  });
});
