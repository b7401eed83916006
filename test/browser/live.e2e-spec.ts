import type { Browser, BrowserContext, Page } from 'playwright-core';
import { SIGNUP_BONUS_POINTS } from '@esim/contracts';
import { waitFor } from '@esim/testing';
import { LiveHub } from '../../services/gateway/src/user-view/live-hub';
import { callPostback, postbackFor, signedPostbackUrl, signUpEarner } from '../earning/earning-support';
import type { SignedUpUser } from '../support/accounts';
import { expectVisible, launchBrowser, PHONE } from '../support/browser';
import type { HttpClient } from '../support/http-client';
import { startSystem, System } from '../support/system';

/**
 * The live view in the real web app (docs/live-view.md): two tabs of one user, on /task and
 * /dashboard, and /history in a third; a sandbox wall's postback credits the user; every tab shows
 * the new balance and says what happened without a reload or a poll; signing out in one tab ends the
 * others' streams. Needs `npm run build -w @esim/frontend` first.
 *
 * How fast the push arrives is a figure, not an assertion: `bench/postbacks.bench.mjs` prints answer →
 * visible on the live stream (p50, p99) under load. A clock here would only measure how busy the CI
 * machine is (a run failed at 1031 ms against 1000 while 121 other suites shared two cores).
 */
describe('web app: live updates', () => {
  let sys: System;
  let client: HttpClient;
  let browser: Browser;
  let context: BrowserContext;
  let user: SignedUpUser;
  const CREDIT = 250;

  /** A tab of the signed-in browser, marked so that a reload would show. */
  async function tab(path: string): Promise<Page> {
    const page = await context.newPage();
    await page.goto(path);
    await page.evaluate(() => ((globalThis as unknown as { tabMark: number }).tabMark = 1));
    return page;
  }
  const notReloaded = async (page: Page) => expect(await page.evaluate(() => (globalThis as unknown as { tabMark?: number }).tabMark)).toBe(1);
  const streamsOf = (userId: string) => sys.apps.gateway!.get(LiveHub).count(userId);

  beforeAll(async () => {
    sys = await startSystem({ serveSpa: true });
    client = sys.client();
    user = await signUpEarner(client, sys.mail, { name: 'Live Lia', locale: 'en' }, sys);
    browser = await launchBrowser();
    context = await browser.newContext({ ...PHONE, baseURL: sys.url, locale: 'en' });
    await context.addInitScript(() => (globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } }).localStorage.setItem('locale', 'en'));
    // The browser holds the session the test signed up with.
    await context.addCookies([{ name: 'sid', value: client.cookies.get('sid')!, url: sys.url }]);
  });
  afterAll(async () => {
    await browser?.close();
    await sys?.stop();
  });

  /** Long enough for a loaded CI machine; that nothing was asked (below) is what shows it was pushed. */
  const PUSHED_WITHIN_MS = 10_000;

  it('shows a postback credit in every tab, with its notice, without a reload or a poll', async () => {
    const task = await tab('/task');
    const dashboard = await tab('/dashboard');
    const history = await tab('/history');
    await expectVisible(task.getByTestId('task-points').filter({ hasText: `${SIGNUP_BONUS_POINTS} MB` }));
    await expectVisible(dashboard.getByTestId('points-balance').filter({ hasText: `${SIGNUP_BONUS_POINTS} MB` }));
    await expectVisible(history.getByRole('heading', { name: 'No missions yet' }));
    await waitFor(async () => streamsOf(user.id) === 3, { what: 'a live stream per tab' });
    // No polling: from here on the tabs ask nothing of their own accord.
    const asked: string[] = [];
    for (const page of [task, dashboard]) page.on('request', (r) => r.url().includes('/api/') && asked.push(r.url()));

    const answer = await callPostback(signedPostbackUrl(sys, 'cpx', postbackFor(user.id, CREDIT)));
    expect(answer.status).toBe(200);
    const total = `${SIGNUP_BONUS_POINTS + CREDIT} MB`;
    const notice = `+${CREDIT} MB from CPX Research`;
    await Promise.all([
      task.getByTestId('task-points').filter({ hasText: total }).waitFor({ timeout: PUSHED_WITHIN_MS }),
      dashboard.getByTestId('points-balance').filter({ hasText: total }).waitFor({ timeout: PUSHED_WITHIN_MS }),
      task.getByTestId('toast').filter({ hasText: notice }).waitFor({ timeout: PUSHED_WITHIN_MS }),
      dashboard.getByTestId('toast').filter({ hasText: notice }).waitFor({ timeout: PUSHED_WITHIN_MS }),
    ]);
    for (const page of [task, dashboard]) await notReloaded(page);
    expect(asked).toEqual([]);

    // /history reads its list again on the push, in place.
    await expectVisible(history.getByTestId('history-item').filter({ hasText: `+${CREDIT} MB` }));
    await expectVisible(history.getByText('via CPX Research'));
    await notReloaded(history);
    await history.close();
  });

  it("signing out in one tab ends the other tab's stream, and that tab leaves the signed-in pages", async () => {
    // Only the first test's /task and /dashboard tabs: whatever else it left open is closed here.
    const [task, dashboard, ...rest] = context.pages();
    for (const page of rest) await page.close();
    await waitFor(async () => streamsOf(user.id) === 2, { what: 'the two tabs streaming' });
    // Signing out is on the profile page: the first tab goes there in the app and signs out.
    await task.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Profile' }).click();
    await task.getByRole('button', { name: 'Sign out' }).click();
    await waitFor(async () => streamsOf(user.id) === 0, { what: 'every stream of the session to end', timeoutMs: 5_000 });
    // The other tab learns it from its stream: it leaves /dashboard for sign-in, unprompted.
    await dashboard.waitForURL(/\/auth/, { timeout: 5_000 });
    expect((await client.get('/api/user')).status).toBe(401);
  });
});
