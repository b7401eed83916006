import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { generateSync } from 'otplib';
import { signUp, SignedUpUser } from '../support/accounts';
import { wcagViolations } from '../support/axe';
import { expectVisible, launchBrowser, PHONE } from '../support/browser';
import { startSystem, System } from '../support/system';

const STEP_SECONDS = 30;
const stepNow = () => Math.floor(Date.now() / 1000 / STEP_SECONDS);
const totpAt = (secret: string, step: number) => generateSync({ secret, epoch: step * STEP_SECONDS });

/**
 * Two-factor sign-in and the session list in the real web app on a phone-sized Chromium:
 * enrolment (QR, key, code, recovery codes shown once and downloadable), the sign-in's code step
 * with a TOTP and with a recovery code, ending other sessions, and axe-core in English and Urdu.
 * Needs `npm run build -w @esim/frontend` first.
 */
describe('web app: two-factor sign-in and sessions in the browser', () => {
  let sys: System;
  let browser: Browser;
  let user: SignedUpUser;
  let secret = '';
  let recoveryCodes: string[] = [];
  /** The last time-step a code was accepted for: the next code must be for a later one. */
  let spentStep = 0;

  /** A phone-sized context in `locale`; CSP is bypassed so axe-core can be injected. */
  async function phone(locale: string): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ ...PHONE, baseURL: sys.url, locale, bypassCSP: true, acceptDownloads: true });
    await context.addInitScript(
      (lng) => (globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } }).localStorage.setItem('locale', lng),
      locale,
    );
    return { context, page: await context.newPage() };
  }

  async function submitPassword(page: Page, locale: string): Promise<void> {
    await page.goto(`/auth?login=true&lng=${locale}`);
    await page.locator('#root[data-app="ready"]').waitFor({ state: 'attached' });
    await page.locator('input[name="email"]').fill(user.email);
    await page.locator('input[name="password"]').fill(user.password);
    await page.locator('form button[type="submit"]').click();
  }

  beforeAll(async () => {
    sys = await startSystem({ serveSpa: true });
    browser = await launchBrowser();
    user = await signUp(sys.client(), sys.mail, { name: 'Dora Dois' });
  });
  afterAll(async () => {
    await browser?.close();
    await sys?.stop();
  });

  it('enrols on /profile: QR and key, a code from the app, ten recovery codes shown once and downloadable', async () => {
    const { context, page } = await phone('en');
    await submitPassword(page, 'en');
    await page.waitForURL(/\/dashboard/);
    await page.goto('/profile');
    await expectVisible(page.getByText('Off. Signing in asks only for your password.'));
    // The switch that used to lie is gone: the card shows the real state.
    expect(await page.getByRole('switch', { name: 'Two-factor authentication' }).count()).toBe(0);

    await page.getByRole('button', { name: 'Set up' }).click();
    await expectVisible(page.getByRole('img', { name: 'QR code for your authenticator app' }));
    secret = (await page.getByTestId('two-factor-secret').textContent())!.trim();
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    expect(await wcagViolations(page)).toEqual([]);

    await page.getByLabel('6-digit code from the app').fill('000000' === totpAt(secret, stepNow()) ? '111111' : '000000');
    await page.getByRole('button', { name: 'Turn on' }).click();
    await expectVisible(page.getByText('That did not work').first());

    spentStep = stepNow();
    await page.getByLabel('6-digit code from the app').fill(totpAt(secret, spentStep));
    await page.getByRole('button', { name: 'Turn on' }).click();
    await expectVisible(page.getByRole('heading', { name: 'Your recovery codes' }));
    recoveryCodes = (await page.getByTestId('recovery-codes').getByRole('listitem').allTextContents()).map((c) => c.trim());
    expect(recoveryCodes).toHaveLength(10);
    expect(await wcagViolations(page)).toEqual([]);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download codes' }).click()]);
    expect(download.suggestedFilename()).toBe('dados-gratis-recovery-codes.txt');
    const text = readFileSync((await download.path())!, 'utf8');
    for (const code of recoveryCodes) expect(text).toContain(code);

    await page.getByRole('button', { name: 'I saved my codes' }).click();
    await expectVisible(page.getByText('On. Signing in also asks for a code from your authenticator app.'));
    expect(await page.getByTestId('recovery-codes').count()).toBe(0);
    await page.reload();
    await expectVisible(page.getByText('On. Signing in also asks for a code from your authenticator app.'));
    await context.close();
  });

  it('asks for the code after the password, refuses a wrong one, and signs in with the next one', async () => {
    const { context, page } = await phone('en');
    await submitPassword(page, 'en');
    await expectVisible(page.getByRole('heading', { name: 'Two-step verification' }));
    expect(page.url()).toContain('/auth');
    expect(await wcagViolations(page)).toEqual([]);

    await page.getByLabel('Verification code').fill(totpAt(secret, spentStep));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expectVisible(page.getByText('Could not verify the code').first());

    spentStep += 1;
    await page.getByLabel('Verification code').fill(totpAt(secret, spentStep));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL(/\/dashboard/);
    await context.close();
  });

  it('signs in with a recovery code in Urdu, lists the sessions and ends the others (axe in Urdu)', async () => {
    const other = sys.client();
    // A session elsewhere, signed in with the password and a recovery code over HTTP.
    expect((await other.post('/api/login', { username: user.email, password: user.password })).json()).toEqual({ twoFactorRequired: true });
    expect((await other.post('/api/login/2fa', { code: recoveryCodes[1] })).status).toBe(200);

    const { context, page } = await phone('ur');
    await submitPassword(page, 'ur');
    await expectVisible(page.getByRole('heading', { name: 'دو مرحلہ تصدیق' }));
    await expect(page.locator('html').getAttribute('dir')).resolves.toBe('rtl');
    expect(await wcagViolations(page)).toEqual([]);
    await page.locator('input[name="code"]').fill(recoveryCodes[0]);
    await page.locator('form button[type="submit"]').click();
    await page.waitForURL(/\/dashboard/);

    await page.goto('/profile');
    const list = page.getByTestId('session-list');
    await expectVisible(list.getByText('یہ ڈیوائس'));
    await expectVisible(page.getByRole('button', { name: 'باقی تمام سیشن ختم کریں' }));
    expect(await list.getByRole('listitem').count()).toBeGreaterThanOrEqual(2);
    expect(await wcagViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'باقی تمام سیشن ختم کریں' }).click();
    await expectVisible(page.getByText('کوئی اور فعال سیشن نہیں ہے۔'));
    expect(await list.getByRole('listitem').count()).toBe(1);
    expect((await other.get('/api/user')).status).toBe(401);
    expect(await wcagViolations(page)).toEqual([]);
    await context.close();
  });

  it('turns two-factor sign-in off with a code, in English', async () => {
    const { context, page } = await phone('en');
    await submitPassword(page, 'en');
    spentStep += 1;
    await page.getByLabel('Verification code').fill(recoveryCodes[2]);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL(/\/dashboard/);
    await page.goto('/profile');
    await page.getByRole('button', { name: 'Turn off' }).click();
    await page.getByLabel('Code from the app or a recovery code').fill(recoveryCodes[3]);
    expect(await wcagViolations(page)).toEqual([]);
    await page.locator('form').getByRole('button', { name: 'Turn off' }).click();
    await expectVisible(page.getByText('Off. Signing in asks only for your password.'));
    await context.close();
  });
});
