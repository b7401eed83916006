import { Browser, BrowserContext, chromium, Locator, Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Debian's Chromium, headless, without the background traffic this closed network refuses. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
}

export const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

/**
 * A phone-sized page whose interface language is `locale` (the SPA reads localStorage `locale`).
 * The app's service worker is blocked: `page.route` cannot see the requests a service worker makes,
 * so stubbed answers would not reach the page. The offline app is tested in its own context
 * (test/browser/purchase.e2e-spec.ts).
 */
export async function phonePage(browser: Browser, baseURL: string, locale = 'en'): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ ...PHONE, baseURL, locale, serviceWorkers: 'block' });
  // Runs in the page, where localStorage exists; the test's own types know only Node.
  await context.addInitScript((lng) => (globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } }).localStorage.setItem('locale', lng), locale);
  const page = await context.newPage();
  return { context, page };
}

/**
 * Waits for what a person would wait for. Generous on purpose: CI runs two suites at once on two
 * cores, each booting every service; this is a wait, not a performance assertion.
 */
export async function expectVisible(locator: Locator): Promise<void> {
  await locator.waitFor({ state: 'visible', timeout: 25_000 });
}

/**
 * Reloads the page until the probe holds: data that arrives through the event bus. After each
 * reload the probe gets a few seconds to hold, because the SPA renders after the load event
 * (its code runs after the pre-rendered first paint); probing at once would reload forever.
 */
export async function reloadUntil(page: Page, probe: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const settle = Math.min(Date.now() + 3_000, deadline);
    while (Date.now() < settle) {
      if (await probe()) return;
      await page.waitForTimeout(250);
    }
    if (Date.now() >= deadline) throw new Error('condition never became true');
    await page.reload();
  }
}

/**
 * Signs `user` in through the English login form and waits for the dashboard. It waits first for
 * the app to own the pre-rendered form (`#root[data-app="ready"]`): a form sent before that is sent
 * by the browser itself.
 */
export async function signInThroughForm(page: Page, user: { email: string; password: string }): Promise<void> {
  await page.goto('/auth?login=true&lng=en');
  await page.locator('#root[data-app="ready"]').waitFor({ state: 'attached' });
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL(/\/dashboard/);
}
