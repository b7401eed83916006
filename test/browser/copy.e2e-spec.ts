import type { Browser, BrowserContext, Page } from 'playwright-core';
import { LOCALES, SANDBOX_DEMO_ICCID } from '@esim/contracts';
import { waitFor } from '@esim/testing';
import { credit, ledgerBalance } from '../redemption/redemption-support';
import { signUp, SignedUpUser } from '../support/accounts';
import { wcagViolations } from '../support/axe';
import { expectVisible, launchBrowser, PHONE, reloadUntil } from '../support/browser';
import { HttpClient } from '../support/http-client';
import { waitForQuiet } from '../support/quiet';
import { startSystem, System } from '../support/system';

type Win = {
  __toasts: string[];
  document: { body: unknown; querySelectorAll(s: string): ArrayLike<{ textContent: string | null }> };
  MutationObserver: new (cb: (records: Array<{ addedNodes: ArrayLike<unknown> }>) => void) => { observe(target: unknown, options: unknown): void };
};

/**
 * The copy and small things a new user trips over (docs/redemption-screens.md), on a phone-sized
 * Chromium against every service: a brand-new user is welcomed (not welcomed back) in pt, en and ur;
 * the dashboard's promise agrees with /success (the eSIM in seconds, the data within 5-10 minutes);
 * one "popular" mark per plan; "1 GB is ready" (i18next plurals); one toast per redemption outcome
 * although the live stream reports it too; data bought with points is "redeemed", not "gifted";
 * the demo ICCID button stays put when the field's error appears on blur; no landing page, in any
 * of the 18 languages, wider than a 360 px phone; /history's bottom-bar logout asks first.
 * axe-core on every screen opened.
 * Needs `npm run build -w @esim/frontend` first.
 */
describe('web app: copy and small things', () => {
  let sys: System;
  let browser: Browser;
  let rosa: SignedUpUser & { client: HttpClient };
  const contexts: BrowserContext[] = [];

  async function signedIn(who: { client: HttpClient } | null, locale: string): Promise<Page> {
    const context = await browser.newContext({ ...PHONE, baseURL: sys.url, locale, bypassCSP: true, serviceWorkers: 'block' });
    contexts.push(context);
    await context.addInitScript((lng) => (globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } }).localStorage.setItem('locale', lng), locale);
    if (who) await context.addCookies([...who.client.cookies].map(([name, value]) => ({ name, value, url: sys.url })));
    return context.newPage();
  }

  /** Records the title of every toast the page shows from now on (they leave after a few seconds). */
  const recordToasts = (page: Page) =>
    page.evaluate(() => {
      const w = globalThis as unknown as Win;
      w.__toasts = [];
      new w.MutationObserver(() => {
        for (const el of Array.from(w.document.querySelectorAll('[data-testid="toast"] .toast__title'))) {
          const marked = el as unknown as { dataset: Record<string, string> };
          if (marked.dataset.seen) continue;
          marked.dataset.seen = '1';
          w.__toasts.push(el.textContent ?? '');
        }
      }).observe(w.document.body, { childList: true, subtree: true });
    });
  const toastsShown = (page: Page) => page.evaluate(() => (globalThis as unknown as Win).__toasts);

  async function passCaptcha(page: Page): Promise<void> {
    const dialog = page.getByRole('dialog', { name: 'Security check' });
    await expectVisible(dialog);
    await dialog.getByRole('checkbox', { name: "I'm not a robot" }).check();
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await dialog.waitFor({ state: 'hidden' });
  }

  beforeAll(async () => {
    sys = await startSystem({ serveSpa: true, env: { ESIM_PROVISIONING_POLL_MS: '100', ESIM_PROVISIONING_RETRY_MS: '200' }, gatewayEnv: { REDEEM_WAIT_MS: '8000' } });
    const client = sys.client();
    rosa = { ...(await signUp(client, sys.mail, { name: 'Rosa Nova' })), client };
    await waitFor(async () => (await ledgerBalance(sys, rosa.id)) > 0, { what: "Rosa's bonus" });
    browser = await launchBrowser();
  }, 180_000);
  afterAll(async () => {
    await Promise.allSettled(contexts.map((c) => c.close()));
    await browser?.close();
    await sys?.stop();
  });

  it.each([
    ['pt', 'Boas-vindas, Rosa Nova!', /em 5 a 10 minutos/],
    ['en', 'Welcome, Rosa Nova!', /within 5-10 minutes/],
    ['ur', 'خوش آمدید، Rosa Nova!', /5-10 منٹ/],
  ])('welcomes a brand-new user in %s, promises what the product does, marks the popular plan once', async (locale, welcome, promise) => {
    const page = await signedIn(rosa, locale);
    await page.goto('/dashboard');
    await expectVisible(page.getByRole('heading', { level: 1, name: welcome }));
    await expectVisible(page.getByRole('note').getByText(promise));
    // The 3 GB plan is named "Popular": no second "Most popular" badge beside the name.
    const popular = page.locator('.plan-card--popular');
    await expectVisible(popular);
    await expect(popular.locator('.badge').count()).resolves.toBe(0);
    expect(await wcagViolations(page)).toEqual([]);
  });

  // A phone browser zooms a page wider than itself out until it fits (innerWidth and clientWidth
  // then grow with it), so the page is measured against the phone's own width.
  it.each(LOCALES)('keeps the %s landing page inside a 360 px phone', async (locale) => {
    const context = await browser.newContext({ ...PHONE, viewport: { width: 360, height: 780 }, baseURL: sys.url, locale, serviceWorkers: 'block' });
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(`/?lng=${locale}`);
    await expectVisible(page.getByRole('heading', { level: 1 }));
    await page.waitForLoadState('load');
    const widths = await page.evaluate(() => {
      const w = globalThis as unknown as { innerWidth: number; document: { documentElement: { scrollWidth: number } } };
      return { page: w.document.documentElement.scrollWidth, viewport: w.innerWidth };
    });
    expect({ locale, ...widths }).toEqual({ locale, page: 360, viewport: 360 });
  });

  it('redeems points for a new eSIM: "1 GB is ready", one toast, and /success says redeemed, not gifted', async () => {
    await credit(sys, rosa.id, 1000);
    const page = await signedIn(rosa, 'en');
    await page.goto('/iccid');
    await expectVisible(page.getByRole('heading', { level: 1, name: 'Claim your data' }));
    await recordToasts(page);
    await page.getByTestId('redeem-submit').click();
    await passCaptcha(page);
    await page.waitForURL(/\/esim-activation$/, { timeout: 30_000 });
    await expectVisible(page.getByTestId('activation-banner').getByText('1 GB is ready. Points used: 1,000.'));
    // Everything the redemption set off has reached the gateway (which streams it to the page) before counting.
    await waitForQuiet(sys, 'the redemption settled');
    await expectVisible(page.getByRole('heading', { level: 1, name: 'Activate your eSIM' }));
    expect(await toastsShown(page)).toEqual(['eSIM ready']);
    expect(await wcagViolations(page)).toEqual([]);

    await page.goto('/success');
    await reloadUntil(page, async () => (await page.getByRole('heading', { level: 1, name: 'Data redeemed!' }).count()) > 0);
    await expect(page.getByRole('heading', { name: 'Data Gifted!' }).count()).resolves.toBe(0);
    expect(await wcagViolations(page)).toEqual([]);
  }, 90_000);

  it('keeps "Use demo ICCID" where the finger is when the field shows its error on blur, and tops up with one toast', async () => {
    await credit(sys, rosa.id, 1000);
    const page = await signedIn(rosa, 'en');
    await page.goto('/iccid');
    await page.getByRole('radio', { name: /Add to existing eSIM/ }).check();
    const field = page.getByRole('textbox', { name: 'ICCID of your eSIM' });
    const demo = page.getByRole('button', { name: 'Use demo ICCID' });
    await field.fill('89');
    const before = await demo.boundingBox();
    await field.evaluate((el) => (el as unknown as { blur(): void }).blur());
    await expectVisible(page.getByText('ICCID must be 19-20 digits starting with 89'));
    expect(await demo.boundingBox()).toEqual(before);
    // A tap straight from the field: blur, error, and the tap still lands.
    await field.focus();
    await demo.tap();
    await expect(field.inputValue()).resolves.toBe(SANDBOX_DEMO_ICCID);
    expect(await wcagViolations(page)).toEqual([]);

    await recordToasts(page);
    await page.getByRole('button', { name: 'Add Data - 1,000 Points' }).click();
    await passCaptcha(page);
    await page.waitForURL(/\/success$/, { timeout: 30_000 });
    await expectVisible(page.getByRole('heading', { level: 1, name: 'Data added!' }));
    await waitForQuiet(sys, 'the top-up settled');
    await expectVisible(page.getByTestId('gifted-amount'));
    expect(await toastsShown(page)).toEqual(['Points redeemed']);
  }, 90_000);

  it.each([
    ['en', 'Log out', 'Log out?', 'Stay signed in'],
    ['ur', 'لاگ آؤٹ', 'لاگ آؤٹ کریں؟', 'سائن اِن رہیں'],
  ])("asks before the /history bar's logout signs out (%s)", async (locale, logout, title, stay) => {
    const page = await signedIn(rosa, locale);
    await page.goto('/history');
    const nav = page.getByRole('navigation').filter({ has: page.getByRole('button', { name: logout }) });
    await nav.getByRole('button', { name: logout }).click();
    const confirm = page.getByRole('alertdialog', { name: title });
    await expectVisible(confirm);
    expect(await wcagViolations(page)).toEqual([]);
    await confirm.getByRole('button', { name: stay }).click();
    await confirm.waitFor({ state: 'hidden' });
    expect(new URL(page.url()).pathname).toBe('/history');
    expect((await rosa.client.get('/api/user')).status).toBe(200);
  });

  it('signs out once confirmed', async () => {
    const other = sys.client();
    const leaving = { ...(await signUp(other, sys.mail, { name: 'Lea Leaving' })), client: other };
    const page = await signedIn(leaving, 'en');
    await page.goto('/history');
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('alertdialog', { name: 'Log out?' }).getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    expect((await leaving.client.get('/api/user')).status).toBe(401);
  });
});
