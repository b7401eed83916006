import type { Browser, BrowserContext, Page } from 'playwright-core';
import { DataSource } from 'typeorm';
import { RetentionSweeper } from '@esim/platform';
import { waitFor } from '@esim/testing';
import { signUp, SignedUpUser } from '../support/accounts';
import { wcagViolations } from '../support/axe';
import { expectVisible, launchBrowser, PHONE } from '../support/browser';
import { startSystem, System } from '../support/system';

/**
 * What the product keeps and for how long, as the user reads it (docs/accounts.md, "Retention"),
 * in the real web app on a phone-sized Chromium: the privacy page's retention section, and the
 * "Balance carried forward" line that replaces points history older than the transaction
 * retention on /history. axe-core in English and Urdu. Needs `npm run build -w @esim/frontend` first.
 */
describe('web app: data retention', () => {
  let sys: System;
  let browser: Browser;
  let user: SignedUpUser;

  async function phone(locale: string): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ ...PHONE, baseURL: sys.url, locale, bypassCSP: true });
    await context.addInitScript(
      (lng) => (globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } }).localStorage.setItem('locale', lng),
      locale,
    );
    return { context, page: await context.newPage() };
  }

  beforeAll(async () => {
    sys = await startSystem({ serveSpa: true });
    browser = await launchBrowser();
    user = await signUp(sys.client(), sys.mail, { name: 'Rita Retida' });
    // Eight years of history: a credit older than the transaction retention, folded by rewards' job.
    const rewards = sys.apps.rewards!;
    const db = rewards.get(DataSource);
    // The points account opens with the sign-up bonus, which arrives by event.
    await waitFor(async () => (await db.query('SELECT 1 FROM ledger_accounts WHERE user_id = $1', [user.id])).length === 1, {
      what: 'the points account',
    });
    await db.query(
      `INSERT INTO ledger_transfers (kind, debit_account_id, credit_account_id, amount, reference, created_at)
       SELECT 'offerwall_credit', o.id, u.id, 500, 'cpx:eight-years-ago', now() - interval '8 years'
         FROM ledger_accounts o, ledger_accounts u WHERE o.code = 'offerwalls' AND u.user_id = $1`,
      [user.id],
    );
    // The service's own first sweep has run (stop waits for it); this one finds the credit.
    const sweeper = rewards.get(RetentionSweeper);
    await sweeper.stop();
    expect(await sweeper.sweep()).toMatchObject({ ledger: 1 });
  });
  afterAll(async () => {
    await browser?.close();
    await sys?.stop();
  });

  it('says on the privacy page how long data is kept, and shows old history as one carried balance (axe in English)', async () => {
    const { context, page } = await phone('en');
    await page.goto('/privacy?lng=en');
    await expectVisible(page.getByRole('heading', { name: 'How long we keep data' }));
    await expectVisible(page.getByText(/becomes a single "balance carried forward" line/));
    expect(await wcagViolations(page)).toEqual([]);

    await page.goto('/auth?login=true&lng=en');
    await page.locator('#root[data-app="ready"]').waitFor({ state: 'attached' });
    await page.locator('input[name="email"]').fill(user.email);
    await page.locator('input[name="password"]').fill(user.password);
    await page.locator('form button[type="submit"]').click();
    await page.waitForURL(/\/dashboard/);
    await page.goto('/history?lng=en');
    const carried = page.getByTestId('statement-entry').filter({ hasText: 'Balance carried forward' });
    await expectVisible(carried);
    await expectVisible(carried.getByText('+500'));
    expect(await wcagViolations(page)).toEqual([]);
    await context.close();
  });

  it('says it in Urdu, right to left (axe in Urdu)', async () => {
    const { context, page } = await phone('ur');
    await page.goto('/privacy?lng=ur');
    await expectVisible(page.getByRole('heading', { name: 'ہم ڈیٹا کب تک رکھتے ہیں' }));
    await expectVisible(page.getByText(/آگے لایا گیا بیلنس/).first());
    expect(await page.locator('html').getAttribute('dir')).toBe('rtl');
    expect(await wcagViolations(page)).toEqual([]);
    await context.close();
  });
});
