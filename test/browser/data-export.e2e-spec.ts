import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { signUp, SignedUpUser } from '../support/accounts';
import { wcagViolations } from '../support/axe';
import { expectVisible, launchBrowser, PHONE } from '../support/browser';
import { startSystem, System } from '../support/system';

/**
 * "Download my data" on /profile in the real web app on a phone-sized Chromium: the link saves one
 * JSON file with the account's data (docs/accounts.md, "Your data"), and the card passes axe-core
 * in English and Urdu. Needs `npm run build -w @esim/frontend` first.
 */
describe('web app: downloading my data', () => {
  let sys: System;
  let browser: Browser;
  let user: SignedUpUser;

  /** A phone-sized context in `locale`; CSP is bypassed so axe-core can be injected. */
  async function phone(locale: string): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ ...PHONE, baseURL: sys.url, locale, bypassCSP: true, acceptDownloads: true });
    await context.addInitScript(
      (lng) => (globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } }).localStorage.setItem('locale', lng),
      locale,
    );
    return { context, page: await context.newPage() };
  }

  async function signIn(page: Page, locale: string): Promise<void> {
    await page.goto(`/auth?login=true&lng=${locale}`);
    await page.locator('#root[data-app="ready"]').waitFor({ state: 'attached' });
    await page.locator('input[name="email"]').fill(user.email);
    await page.locator('input[name="password"]').fill(user.password);
    await page.locator('form button[type="submit"]').click();
    await page.waitForURL(/\/dashboard/);
  }

  beforeAll(async () => {
    sys = await startSystem({ serveSpa: true });
    browser = await launchBrowser();
    user = await signUp(sys.client(), sys.mail, { name: 'Helena Dados' });
  });
  afterAll(async () => {
    await browser?.close();
    await sys?.stop();
  });

  it('saves one JSON file with the account, its points and its sessions (axe in English)', async () => {
    const { context, page } = await phone('en');
    await signIn(page, 'en');
    await page.goto('/profile');
    await expectVisible(page.getByRole('heading', { name: 'Your data' }));
    const link = page.getByRole('link', { name: 'Download my data' });
    await link.scrollIntoViewIfNeeded();
    expect(await wcagViolations(page)).toEqual([]);

    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toMatch(/^dados-gratis-\d{4}-\d{2}-\d{2}\.json$/);
    const data = JSON.parse(readFileSync((await download.path())!, 'utf8'));
    expect(data.account).toMatchObject({ id: user.id, email: user.email, name: 'Helena Dados' });
    expect(data.points.statement).toEqual([expect.objectContaining({ kind: 'signup_bonus', points: 100 })]);
    // The sign-up's session and this one.
    expect(data.sessions).toEqual(expect.arrayContaining([expect.objectContaining({ current: true }), expect.objectContaining({ current: false })]));
    // The link is reached by keyboard like any other.
    await link.focus();
    expect(await page.evaluate(() => (globalThis as unknown as { document: { activeElement: { getAttribute(n: string): string | null } } }).document.activeElement.getAttribute('href'))).toBe(
      '/api/user/export',
    );
    await context.close();
  });

  it('shows the card in Urdu, right to left (axe in Urdu)', async () => {
    const { context, page } = await phone('ur');
    await signIn(page, 'ur');
    await page.goto('/profile');
    await expectVisible(page.getByRole('link', { name: 'میرا ڈیٹا ڈاؤن لوڈ کریں' }));
    expect(await page.locator('html').getAttribute('dir')).toBe('rtl');
    expect(await wcagViolations(page)).toEqual([]);
    await context.close();
  });
});
