import type { Browser, BrowserContext, Page } from 'playwright-core';
import { LOCALE_COOKIE } from '@esim/contracts';
import { waitFor } from '@esim/testing';
import { credit, ledgerBalance } from '../redemption/redemption-support';
import { signUp, SignedUpUser } from '../support/accounts';
import { wcagViolations } from '../support/axe';
import { expectVisible, launchBrowser } from '../support/browser';
import type { HttpClient } from '../support/http-client';
import { startSystem, System } from '../support/system';

const DESKTOP = { viewport: { width: 1280, height: 900 } };

/**
 * The signed-in pages at 1280 px: a side navigation on the left instead of the bottom bar, and the
 * pages using the width (cards side by side), in English and Urdu (right to left: the navigation on
 * the right); axe-core on each. Needs `npm run build -w @esim/frontend` first.
 */
describe('web app: desktop layouts', () => {
  let sys: System;
  let browser: Browser;
  let dora: SignedUpUser & { client: HttpClient };
  const contexts: BrowserContext[] = [];

  async function desktop(locale: string): Promise<Page> {
    const context = await browser.newContext({ ...DESKTOP, baseURL: sys.url, locale, bypassCSP: true, serviceWorkers: 'block' });
    contexts.push(context);
    await context.addInitScript((lng) => (globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } }).localStorage.setItem('locale', lng), locale);
    // The language as the app keeps it once chosen: in localStorage and in the cookie the gateway
    // reads to send the page (and the signed-in shell) in that language from the first paint.
    await context.addCookies([...[...dora.client.cookies].map(([name, value]) => ({ name, value, url: sys.url })), { name: LOCALE_COOKIE, value: locale, url: sys.url }]);
    return context.newPage();
  }

  /** The navigation's box, the main column's width, and how many cards share a row with another. */
  const layout = (page: Page) =>
    page.evaluate(() => {
      type Box = { left: number; right: number; top: number; width: number; height: number };
      const d = (globalThis as unknown as { document: { querySelector(s: string): { getBoundingClientRect(): Box } | null; querySelectorAll(s: string): ArrayLike<{ getBoundingClientRect(): Box }> } }).document;
      const nav = d.querySelector('nav.bottom-nav')!.getBoundingClientRect();
      const main = d.querySelector('main')!.getBoundingClientRect();
      const cards = Array.from(d.querySelectorAll('main > .card')).map((c) => c.getBoundingClientRect());
      const sideBySide = cards.filter((a) => cards.some((b) => b !== a && Math.abs(b.top - a.top) < 2 && (b.left >= a.right || b.right <= a.left))).length;
      return { nav, main, sideBySide };
    });

  beforeAll(async () => {
    sys = await startSystem({ serveSpa: true });
    const client = sys.client();
    dora = { ...(await signUp(client, sys.mail, { name: 'Dora Desk' })), client };
    await waitFor(async () => (await ledgerBalance(sys, dora.id)) > 0, { what: "Dora's bonus" });
    await credit(sys, dora.id, 1000);
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await Promise.allSettled(contexts.map((c) => c.close()));
    await browser?.close();
    await sys?.stop();
  });

  it.each(['/dashboard', '/history', '/task', '/profile', '/esims'])('lays out %s for a desktop: side navigation, cards in columns', async (path) => {
    const page = await desktop('en');
    await page.goto(path);
    await expectVisible(page.getByRole('heading', { level: 1 }));
    const l = await layout(page);
    // A column on the left, the full height of the window, not a bar across the bottom.
    expect(l.nav.left).toBe(0);
    expect(l.nav.width).toBeLessThan(300);
    expect(l.nav.height).toBe(DESKTOP.viewport.height);
    expect(l.main.left).toBeGreaterThanOrEqual(l.nav.right);
    expect(l.main.width).toBeGreaterThan(700);
    if (path === '/dashboard') expect(l.sideBySide).toBeGreaterThanOrEqual(2);
    expect(await wcagViolations(page)).toEqual([]);
  });

  it('puts the /iccid summary beside its choices', async () => {
    const page = await desktop('en');
    await page.goto('/iccid');
    await expectVisible(page.getByRole('heading', { level: 1, name: 'Claim your data' }));
    const [choices, cost] = await Promise.all([page.getByRole('group', { name: 'What would you like?' }).boundingBox(), page.getByTestId('redeem-cost').boundingBox()]);
    expect(cost!.x).toBeGreaterThan(choices!.x + choices!.width);
    expect(await wcagViolations(page)).toEqual([]);
  });

  it('mirrors the side navigation in Urdu (right to left)', async () => {
    const page = await desktop('ur');
    await page.goto('/dashboard');
    await expect(page.locator('html').getAttribute('dir')).resolves.toBe('rtl');
    await expectVisible(page.getByRole('heading', { level: 1 }));
    const l = await layout(page);
    expect(l.nav.right).toBe(DESKTOP.viewport.width);
    expect(l.main.right).toBeLessThanOrEqual(l.nav.left);
    expect(await wcagViolations(page)).toEqual([]);
  });
});
