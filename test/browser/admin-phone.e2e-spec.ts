import type { Browser, BrowserContext, Page } from 'playwright-core';
import { signUp, SignedUpUser, uniqueEmail } from '../support/accounts';
import { wcagViolations } from '../support/axe';
import { expectVisible, launchBrowser, PHONE } from '../support/browser';
import { HttpClient } from '../support/http-client';
import { startSystem, System } from '../support/system';

const BOSS = uniqueEmail('boss');

/**
 * /admin on a phone (390 px), in English, Portuguese and Urdu (right to left): the page is no wider
 * than the screen (the user table scrolls sideways inside its own box), and the gift dialog fits
 * the screen with "Send gift" tappable above its backdrop; axe-core on the console and the dialog.
 * Needs `npm run build -w @esim/frontend` first.
 */
describe('web app: the admin console on a phone', () => {
  let sys: System;
  let browser: Browser;
  let boss: SignedUpUser & { client: HttpClient };
  let nadia: SignedUpUser;
  const contexts: BrowserContext[] = [];

  async function adminPhone(locale: string): Promise<Page> {
    const context = await browser.newContext({ ...PHONE, baseURL: sys.url, locale, bypassCSP: true, serviceWorkers: 'block' });
    contexts.push(context);
    await context.addInitScript((lng) => (globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } }).localStorage.setItem('locale', lng), locale);
    await context.addCookies([...boss.client.cookies].map(([name, value]) => ({ name, value, url: sys.url })));
    return context.newPage();
  }

  /** The page's width and the table box's, as laid out. */
  const widths = (page: Page) =>
    page.evaluate(() => {
      type El = { scrollWidth: number; clientWidth: number; getBoundingClientRect(): { left: number; right: number } };
      const d = (globalThis as unknown as { document: { documentElement: El; querySelector(s: string): El | null } }).document;
      const wrap = d.querySelector('.admin__table-wrap')!;
      const box = wrap.getBoundingClientRect();
      return { page: d.documentElement.scrollWidth, screen: d.documentElement.clientWidth, boxLeft: box.left, boxRight: box.right, table: wrap.scrollWidth, shown: wrap.clientWidth };
    });

  beforeAll(async () => {
    sys = await startSystem({ serveSpa: true, env: { ADMIN_EMAILS: BOSS } });
    const client = sys.client();
    boss = { ...(await signUp(client, sys.mail, { email: BOSS, name: 'Boss' })), client };
    nadia = await signUp(sys.client(), sys.mail, { name: 'Nadia Phone-Number-With-A-Long-Name' });
    browser = await launchBrowser();
  }, 180_000);
  afterAll(async () => {
    await Promise.allSettled(contexts.map((c) => c.close()));
    await browser?.close();
    await sys?.stop();
  });

  it.each([
    ['en', 'Gift data to a user', 'Send gift', 'Gift data to Nadia'],
    ['pt', null, null, null],
    ['ur', null, null, null],
  ])('keeps /admin inside a 390 px screen in %s, the table scrolling in its box', async (locale, dialogName, sendName, giftName) => {
    const page = await adminPhone(locale);
    await page.goto('/admin');
    const row = page.locator(`[data-testid="admin-user-row"][data-user-id="${nadia.id}"]`);
    await expectVisible(row);
    const w = await widths(page);
    expect(w.page).toBe(w.screen);
    expect(w.boxLeft).toBeGreaterThanOrEqual(0);
    expect(w.boxRight).toBeLessThanOrEqual(w.screen);
    // The table is wider than its box, which scrolls.
    expect(w.table).toBeGreaterThan(w.shown);
    expect(await wcagViolations(page)).toEqual([]);
    if (!dialogName) return;

    // The gift dialog, opened from a row: inside the screen, and "Send gift" takes the tap.
    await row.getByRole('button', { name: giftName! }).click();
    const dialog = page.getByRole('dialog', { name: dialogName });
    await expectVisible(dialog);
    const box = (await dialog.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.viewport.width);
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(PHONE.viewport.height);
    expect(await wcagViolations(page)).toEqual([]);
    await dialog.getByRole('combobox', { name: 'Plan' }).selectOption('1GB');
    // A tap (not a scripted click): it lands on whatever is on top at that point.
    await dialog.getByRole('button', { name: sendName! }).tap();
    await dialog.waitFor({ state: 'hidden' });
    await expectVisible(page.getByText('1 GB gifted to Nadia Phone-Number-With-A-Long-Name.'));
    expect((await boss.client.get(`/api/admin/users?q=${encodeURIComponent(nadia.email)}`)).json()[0]).toMatchObject({ giftsPendingGB: 1 });
  });
});
