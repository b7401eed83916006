import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { AcceptedPostback, OfferwallPostbacksAccepted } from '@esim/contracts';
import { waitFor } from '@esim/testing';
import { publishEvent } from '../live/live-support';
import { signUp, SignedUpUser } from '../support/accounts';
import { wcagViolations } from '../support/axe';
import { expectVisible, launchBrowser, PHONE } from '../support/browser';
import type { HttpClient } from '../support/http-client';
import { startSystem, System } from '../support/system';

const CREDITS = 25;

/**
 * A readable /history (docs/redemption-screens.md), on a phone-sized Chromium: 23 surveys from
 * RapidoReach, the same app install from Lootably and from CPX (taken back). The missions come
 * first, by day, titled with the offer's name and labelled with their kind, one label per kind
 * whatever the wall, 20 at a time from the server ("Show more" asks for the next page by cursor,
 * while more credits arrive); the points statement follows in plain words ("Credit from
 * RapidoReach", "Taken back by CPX Research: offer reversed"), the walls' transaction ids only
 * behind "Details". English, Portuguese and Urdu, axe-core on each.
 * Needs `npm run build -w @esim/frontend` first.
 */
describe('web app: a history people can read', () => {
  let sys: System;
  let browser: Browser;
  let ivo: SignedUpUser & { client: HttpClient };
  const contexts: BrowserContext[] = [];

  const accepted = (over: Partial<AcceptedPostback>): AcceptedPostback => {
    const transactionId = over.transactionId ?? `tx-${randomUUID().slice(0, 8)}`;
    return { deliveryId: randomUUID(), provider: 'rapidoreach', action: 'credit', transactionId, creditTransactionId: transactionId, userId: ivo.id, points: 40, taskType: 'offer_completion', kind: 'survey', ...over };
  };
  const deliver = (...postbacks: AcceptedPostback[]) => publishEvent(sys, OfferwallPostbacksAccepted, { postbacks, acceptedAt: new Date().toISOString() });

  async function signedIn(locale: string): Promise<Page> {
    const context = await browser.newContext({ ...PHONE, baseURL: sys.url, locale, bypassCSP: true, serviceWorkers: 'block' });
    contexts.push(context);
    await context.addInitScript((lng) => (globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } }).localStorage.setItem('locale', lng), locale);
    await context.addCookies([...ivo.client.cookies].map(([name, value]) => ({ name, value, url: sys.url })));
    return context.newPage();
  }

  beforeAll(async () => {
    sys = await startSystem({ serveSpa: true, env: { CREDIT_HOLD_MIN_POINTS: '100000' } });
    const client = sys.client();
    ivo = { ...(await signUp(client, sys.mail, { name: 'Ivo History' })), client };
    await deliver(...Array.from({ length: CREDITS - 2 }, (_, i) => accepted({ offerName: `Survey ${i + 1}` })));
    await deliver(accepted({ provider: 'lootably', points: 50, offerName: 'Puzzle Quest', taskType: 'app_install', kind: 'app_install' }));
    const cpx = accepted({ provider: 'cpx', points: 300, offerName: 'Puzzle Quest', taskType: 'app_install', kind: 'app_install' });
    await deliver(cpx);
    await deliver({ ...cpx, deliveryId: randomUUID(), action: 'reverse', transactionId: `${cpx.transactionId}-r`, reversalReason: 'Chargeback' });
    await waitFor(async () => (await client.get('/api/tasks')).json().length === CREDITS && (await client.get('/api/tasks')).json().some((t: { completed: boolean }) => !t.completed), {
      what: 'the missions and the reversal',
    });
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await Promise.allSettled(contexts.map((c) => c.close()));
    await browser?.close();
    await sys?.stop();
  });

  it('shows the missions first, by day and by offer, a page of 20 at a time, then the statement in plain words (en)', async () => {
    const page = await signedIn('en');
    await page.goto('/history');
    const items = page.getByTestId('history-item');
    await expectVisible(page.getByRole('heading', { name: 'Today' }));
    await expect(items.count()).resolves.toBe(20);
    await expectVisible(items.filter({ hasText: 'Survey 1' }).first());
    await expectVisible(page.getByTestId('missions-shown').getByText('Showing 20 of 25 missions'));
    const statement = page.getByTestId('statement');
    const [firstMission, statementTop] = await Promise.all([items.first().boundingBox(), statement.boundingBox()]);
    expect(firstMission!.y).toBeLessThan(statementTop!.y);
    expect(await wcagViolations(page)).toEqual([]);

    // The same app install from two walls: one label.
    const puzzle = items.filter({ hasText: 'Puzzle Quest' });
    await expect(puzzle.count()).resolves.toBe(2);
    await expect(puzzle.getByTestId('history-kind').allTextContents()).resolves.toEqual(['App install · ', 'App install · ']);
    await expectVisible(items.filter({ hasText: 'Survey 1' }).first().getByText('Survey ·'));

    // Three more credits land while the first page is read: the live view brings them in on top,
    // and the next pages (by cursor) repeat none and skip none.
    await deliver(...Array.from({ length: 3 }, (_, i) => accepted({ offerName: `Late ${i + 1}` })));
    await expectVisible(items.filter({ hasText: 'Late 3' }));
    const more = page.getByRole('button', { name: 'Show more missions' });
    await more.click();
    await waitFor(async () => (await items.count()) === CREDITS + 3, { what: 'every mission, once' });
    await expect(more.count()).resolves.toBe(0);
    const titles = await page.locator('[data-testid="history-item"] .history-item__type').allTextContents();
    const expected = [...Array.from({ length: CREDITS - 2 }, (_, i) => `Survey ${i + 1}`), 'Puzzle Quest', 'Puzzle Quest', 'Late 1', 'Late 2', 'Late 3'];
    expect([...titles].sort()).toEqual(expected.sort());
    await expectVisible(page.getByTestId('missions-shown').getByText(`Showing ${titles.length} of ${titles.length} missions`));

    const entries = statement.getByTestId('statement-entry');
    await expectVisible(entries.filter({ hasText: 'Credit from RapidoReach' }).first());
    const takenBack = entries.filter({ hasText: 'Taken back by CPX Research: offer reversed' });
    await expectVisible(takenBack);
    const id = takenBack.getByText(/transaction tx-/);
    await expect(id.isVisible()).resolves.toBe(false);
    await takenBack.getByText('Details').click();
    await expectVisible(id);
    expect(await wcagViolations(page)).toEqual([]);

    // /task names its app-install mission with the same word.
    await page.goto('/task');
    await expectVisible(page.getByTestId('mission-install-game').getByText('App install · Easy'));
    expect(await wcagViolations(page)).toEqual([]);
  });

  it.each([
    ['pt', 'Crédito de RapidoReach', `Mostrando 20 de ${CREDITS + 3} missões`],
    ['ur', 'RapidoReach سے کریڈٹ', 'میں سے'],
  ])('says it in %s', async (locale, credit, shown) => {
    const page = await signedIn(locale);
    await page.goto('/history');
    await expectVisible(page.getByTestId('missions-shown').getByText(shown));
    await expectVisible(page.getByTestId('statement-entry').filter({ hasText: credit }).first());
    expect(await wcagViolations(page)).toEqual([]);
  });
});
