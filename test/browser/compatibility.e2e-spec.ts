import type { Browser, BrowserContext, Page } from 'playwright-core';
import { signUp, SignedUpUser } from '../support/accounts';
import { wcagViolations } from '../support/axe';
import { expectVisible, launchBrowser, PHONE } from '../support/browser';
import { startSystem, System } from '../support/system';

const IPHONE_17_4 =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const ANDROID = 'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
/** An activation code whose phone asks for a confirmation code (flag 1 after the OID). */
const LPA = 'LPA:1$smdp.example.com$K2-7QX4-ABCD$1.3.6.1.4.1.31746$1';
const ICCID = '8912345678901234567';

type Device = { kind: 'iphone' } | { kind: 'android'; model: string };

/**
 * Compatibility before earning and installing on any phone (docs/wallet.md), in the real web app
 * on a phone-sized Chromium: the verdict on the landing page and the dashboard for the model an
 * Android browser reports through User-Agent Client Hints (set with CDP's
 * Emulation.setUserAgentOverride) or the iPhone the user picks; and the activation page's install
 * options, the one to try first on this phone at the head. axe-core checks each in English and
 * Urdu (right to left). Needs `npm run build -w @esim/frontend` first.
 */
describe('web app: will it work on my phone, and how to install', () => {
  let sys: System;
  let browser: Browser;
  let user: SignedUpUser;
  let signedIn: Awaited<ReturnType<BrowserContext['cookies']>> = [];
  const opened: BrowserContext[] = [];

  /** A phone-sized page in `locale` on `device`; CSP is bypassed so axe-core can be injected. */
  async function phone(locale: string, device: Device, session = false): Promise<Page> {
    const ctx = await browser.newContext({
      ...PHONE,
      baseURL: sys.url,
      locale,
      bypassCSP: true,
      userAgent: device.kind === 'iphone' ? IPHONE_17_4 : ANDROID,
    });
    opened.push(ctx);
    await ctx.addInitScript(
      (lng) => (globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } }).localStorage.setItem('locale', lng),
      locale,
    );
    if (session) await ctx.addCookies(signedIn);
    const page = await ctx.newPage();
    if (device.kind === 'android') {
      // What Android Chromium reports: the model only through the high-entropy client hints.
      const cdp = await ctx.newCDPSession(page);
      await cdp.send('Emulation.setUserAgentOverride', {
        userAgent: ANDROID,
        userAgentMetadata: {
          brands: [{ brand: 'Chromium', version: '131' }],
          fullVersionList: [{ brand: 'Chromium', version: '131.0.0.0' }],
          platform: 'Android',
          platformVersion: '14.0.0',
          architecture: '',
          model: device.model,
          mobile: true,
        },
      });
    }
    return page;
  }

  const verdict = (page: Page) => page.getByTestId('device-verdict');
  const readClipboard = (page: Page) =>
    page.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText());

  beforeAll(async () => {
    sys = await startSystem({ serveSpa: true });
    user = await signUp(sys.client(), sys.mail, { name: 'Compat Carla' });
    browser = await launchBrowser();
    const page = await phone('en', { kind: 'android', model: 'SM-G991B' });
    await page.goto('/auth?login=true');
    await page.locator('#root[data-app="ready"]').waitFor({ state: 'attached' });
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(/\/dashboard/);
    signedIn = await page.context().cookies();
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((ctx) => ctx.close()));
  });
  afterAll(async () => {
    await browser?.close();
    await sys?.stop();
  });

  it('landing page, Android: the model from the client hints, Galaxy S21 works, Galaxy A14 does not (Urdu)', async () => {
    const page = await phone('en', { kind: 'android', model: 'SM-G991B' });
    await page.goto('/');
    await expectVisible(page.getByRole('heading', { level: 2, name: 'Will it work on your phone?' }));
    await expectVisible(verdict(page).getByText('Works: your Galaxy S21 supports eSIM.'));
    await expect(verdict(page).getAttribute('data-verdict')).resolves.toBe('true');
    expect(await wcagViolations(page)).toEqual([]);

    const ur = await phone('ur', { kind: 'android', model: 'SM-A145M' });
    await ur.goto('/');
    await expectVisible(verdict(ur).getByText('نہیں چلے گا: آپ کے Galaxy A14 میں eSIM نہیں ہے۔'));
    await expectVisible(verdict(ur).getByText(/ICCID/));
    await expect(ur.evaluate(() => (globalThis as unknown as { document: { documentElement: { dir: string } } }).document.documentElement.dir)).resolves.toBe('rtl');
    expect(await wcagViolations(ur)).toEqual([]);
  });

  it('landing page, Android with a model the list does not know: unknown, and how to check (*#06#, EID)', async () => {
    const page = await phone('en', { kind: 'android', model: 'Nokia G21' });
    await page.goto('/');
    await expectVisible(verdict(page).getByText("We don't know if this phone supports eSIM."));
    await expectVisible(verdict(page).getByText('To check, dial *#06#: if the screen shows an EID, your phone supports eSIM.'));
    await expect(verdict(page).getAttribute('data-verdict')).resolves.toBe('null');
  });

  it('landing page, iPhone: asks which iPhone; iPhone 8 does not work (the MB can go to a family eSIM), iPhone XS works', async () => {
    const page = await phone('en', { kind: 'iphone' });
    await page.goto('/');
    const select = page.getByLabel('Which iPhone do you have?');
    await expectVisible(select);
    expect(await wcagViolations(page)).toEqual([]);
    await select.selectOption('iPhone 8');
    await expectVisible(verdict(page).getByText('Does not work: your iPhone 8 has no eSIM.'));
    await expectVisible(verdict(page).getByText(/family member's eSIM.*ICCID/));
    await select.selectOption('iPhone XS');
    await expectVisible(verdict(page).getByText('Works: your iPhone XS supports eSIM.'));
    expect(await wcagViolations(page)).toEqual([]);
  });

  it('dashboard: the same verdict in its card, Android in English and iPhone in Urdu', async () => {
    const page = await phone('en', { kind: 'android', model: 'SM-A145M' }, true);
    await page.goto('/dashboard');
    const card = page.getByTestId('device-check');
    await expectVisible(card.getByText('Does not work: your Galaxy A14 has no eSIM.'));
    // The card only: the dashboard's header and other cards are other features' (their own tests).
    expect(await wcagViolations(page, '[data-testid="device-check"]')).toEqual([]);

    const ur = await phone('ur', { kind: 'iphone' }, true);
    await ur.goto('/dashboard');
    const select = ur.getByLabel('آپ کے پاس کون سا iPhone ہے؟');
    await expectVisible(select);
    await select.selectOption('iPhone 11');
    await expectVisible(ur.getByTestId('device-verdict').getByText('چلے گا: آپ کا iPhone 11 eSIM کو سپورٹ کرتا ہے۔'));
    expect(await wcagViolations(ur, '[data-testid="device-check"]')).toEqual([]);
  });

  const activation = `/esim-activation?iccid=${ICCID}&lpa=${encodeURIComponent(LPA)}`;

  it("activation page, Android: the direct install link first, then the QR code from another screen, then manual entry", async () => {
    const page = await phone('en', { kind: 'android', model: 'SM-G991B' }, true);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: sys.url });
    await page.goto(activation);
    await expectVisible(page.getByRole('heading', { level: 2, name: 'Ways to install' }));
    await expect(page.getByTestId('install-first').innerText()).resolves.toBe(
      'On this phone, try the direct install link first, then the QR code from another screen.',
    );
    const options = page.getByTestId('install-options').locator('li.install-option');
    await expect(options.evaluateAll((items) => items.map((li) => li.getAttribute('data-testid')))).resolves.toEqual([
      'install-androidLink',
      'install-qr',
      'install-manual',
    ]);
    await expectVisible(options.first().getByText('Try this first'));
    await expect(page.getByTestId('android-install').getAttribute('href')).resolves.toBe(
      `https://esimsetup.android.com/esim_qrcode_provisioning?carddata=${encodeURIComponent(LPA)}`,
    );
    await expect(page.getByTestId('apple-one-tap').count()).resolves.toBe(0);

    // Manual entry: the SM-DP+ address and the activation code apart, each copied on its own.
    await expect(page.getByTestId('manual-smdp').textContent()).resolves.toBe('smdp.example.com');
    await expect(page.getByTestId('manual-code').textContent()).resolves.toBe('K2-7QX4-ABCD');
    await page.getByRole('button', { name: 'Copy the SM-DP+ address' }).click();
    await expectVisible(page.getByText('SM-DP+ address is on your clipboard.'));
    await expect(readClipboard(page)).resolves.toBe('smdp.example.com');
    await page.getByRole('button', { name: 'Copy the activation code for manual entry' }).click();
    await expectVisible(page.getByText('Activation code for manual entry is on your clipboard.'));
    await expect(readClipboard(page)).resolves.toBe('K2-7QX4-ABCD');
    await expectVisible(page.getByTestId('manual-confirmation').getByText('Your phone will ask for a confirmation code: you will receive it separately.'));
    expect(await wcagViolations(page)).toEqual([]);
  });

  it("activation page, iPhone: Apple's one-tap install first; in Urdu too", async () => {
    const page = await phone('en', { kind: 'iphone' }, true);
    await page.goto(activation);
    await expectVisible(page.getByRole('heading', { level: 2, name: 'Ways to install' }));
    await expect(page.getByTestId('install-first').innerText()).resolves.toBe('On this iPhone, try the one-tap install first.');
    const options = page.getByTestId('install-options').locator('li.install-option');
    await expect(options.evaluateAll((items) => items.map((li) => li.getAttribute('data-testid')))).resolves.toEqual([
      'install-appleOneTap',
      'install-qr',
      'install-manual',
    ]);
    await expect(page.getByTestId('apple-one-tap').getAttribute('href')).resolves.toBe(
      `https://esimsetup.apple.com/esim_qrcode_provisioning?carddata=${encodeURIComponent(LPA)}`,
    );
    await expect(page.getByTestId('android-install').count()).resolves.toBe(0);
    expect(await wcagViolations(page)).toEqual([]);

    const ur = await phone('ur', { kind: 'iphone' }, true);
    await ur.goto(activation);
    await expectVisible(ur.getByRole('heading', { level: 2, name: 'انسٹال کرنے کے طریقے' }));
    await expectVisible(ur.getByRole('button', { name: 'SM-DP+ ایڈریس کاپی کریں' }));
    expect(await wcagViolations(ur)).toEqual([]);
  });
});
