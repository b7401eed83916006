import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ADMIN_EXPORT_COLUMNS, SIGNUP_BONUS_POINTS } from '@esim/contracts';
import { waitFor } from '@esim/testing';
import { KeepGoEmulatorFaults } from '../../sandboxes/src/keepgo/keepgo-emulator-faults';
import { csvLines } from '../admin/admin-support';
import { claimGift, credit, DEMO_ICCID, ledgerBalance, PASSING_CAPTCHA, redeem, topUp } from '../redemption/redemption-support';
import { wcagViolations } from '../support/axe';
import { signUp, SignedUpUser, uniqueEmail } from '../support/accounts';
import { expectVisible, launchBrowser, reloadUntil, signInThroughForm } from '../support/browser';
import type { HttpClient } from '../support/http-client';
import { startSystem, System } from '../support/system';

const BOSS = uniqueEmail('boss');
const DESKTOP = { viewport: { width: 1280, height: 900 } };

/**
 * /admin in the browser as an admin (made by ADMIN_EMAILS): the stat cards, searching the user
 * table, gifting 3GB (seen on that user's dashboard once claimed), resolving a stuck delivery,
 * downloading the CSV; a non-admin sees Access Denied; axe-core finds no WCAG A/AA violation in
 * English and in Urdu (right to left). Needs `npm run build -w @esim/frontend` first.
 */
describe('web app: the admin console', () => {
  let sys: System;
  let browser: Browser;
  let boss: SignedUpUser;
  let lia: SignedUpUser & { client: HttpClient };
  let sam: SignedUpUser & { client: HttpClient };
  let stuckId: string;
  let admin: { context: BrowserContext; page: Page };

  /** A context signed in as `user` through the (English) login form; CSP bypassed for axe-core. */
  async function signedIn(user: SignedUpUser): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ ...DESKTOP, baseURL: sys.url, locale: 'en', bypassCSP: true, acceptDownloads: true });
    const page = await context.newPage();
    await signInThroughForm(page, user);
    return { context, page };
  }

  beforeAll(async () => {
    sys = await startSystem({
      serveSpa: true,
      env: { ADMIN_EMAILS: BOSS, ESIM_PROVISIONING_ATTEMPTS: '1', ESIM_PROVISIONING_POLL_MS: '100', KEEPGO_RETRY_BACKOFF_MS: '20', RPC_TIMEOUT_MS: '20000' },
      gatewayEnv: { REDEEM_WAIT_MS: '20000' },
    });
    const signUpWithClient = async (o: Parameters<typeof signUp>[2]) => {
      const client = sys.client();
      return { ...(await signUp(client, sys.mail, o)), client };
    };
    [boss, lia, sam] = await Promise.all([signUp(sys.client(), sys.mail, { email: BOSS, name: 'Boss' }), signUpWithClient({ name: 'Lia Browser' }), signUpWithClient({ name: 'Sam Stuck' })]);
    await waitFor(async () => (await ledgerBalance(sys, sam.id)) === SIGNUP_BONUS_POINTS, { what: "Sam's bonus" });

    // Sam's redemption meets an unreachable provider: it waits for a person, points reserved.
    await credit(sys, sam.id, 1000);
    expect((await sam.client.post('/api/verify-captcha', { token: PASSING_CAPTCHA })).status).toBe(200);
    const faults = sys.sandboxes.app.get(KeepGoEmulatorFaults);
    faults.set({ mode: 'fail' });
    const res = await redeem(sam.client, topUp(DEMO_ICCID, '1GB'));
    faults.reset();
    expect(res.json().status).toBe('manual_transfer_required');
    stuckId = res.json().redemptionId;

    browser = await launchBrowser();
    admin = await signedIn(boss);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await sys?.stop();
  });

  it('shows the stat cards', async () => {
    const { page } = admin;
    await page.goto('/admin');
    await expectVisible(page.getByRole('heading', { level: 1, name: 'Admin dashboard' }));
    const stats = (await (await page.request.get('/api/admin/stats')).json()) as { totalUsers: number; totalPoints: number };
    await expectVisible(page.getByTestId('stat-totalUsers').getByText(String(stats.totalUsers), { exact: true }));
    await expectVisible(page.getByTestId('stat-totalDataGifted').getByText('0 GB', { exact: true }));
    await expectVisible(page.getByTestId('stat-totalPoints').getByText(stats.totalPoints.toLocaleString('en')));
  });

  it('finds a user with the server-side search and gifts 3GB, seen on their dashboard once claimed', async () => {
    const { page } = admin;
    await page.getByRole('searchbox', { name: 'Search users' }).fill('Lia Browser');
    const rows = page.getByTestId('admin-user-row');
    await waitFor(async () => (await rows.count()) === 1 && (await rows.first().getAttribute('data-user-id')) === lia.id, { what: 'the search result' });
    await expectVisible(rows.first().getByText('Earning'));
    await rows.first().getByRole('button', { name: 'Gift data to Lia Browser' }).click();

    const dialog = page.getByRole('dialog', { name: 'Gift data to a user' });
    await expectVisible(dialog);
    await expect(dialog.getByRole('combobox', { name: 'User' }).inputValue()).resolves.toBe(lia.id);
    // Without a plan, the spec's message.
    await dialog.getByRole('button', { name: 'Send gift' }).click();
    await expectVisible(page.getByRole('alert').getByText('Please select a user and plan tier.'));
    await expectVisible(page.getByRole('alert').getByText('Missing selection'));
    await dialog.getByRole('combobox', { name: 'Plan' }).selectOption('3GB');
    await dialog.getByRole('button', { name: 'Send gift' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expectVisible(page.getByText('3 GB gifted to Lia Browser.'));

    // Lia claims it (as the claim page would) and her dashboard shows it.
    expect((await lia.client.post('/api/verify-captcha', { token: PASSING_CAPTCHA })).status).toBe(200);
    expect((await claimGift(lia.client, topUp(DEMO_ICCID, '3GB'))).json()).toMatchObject({ status: 'completed', amountGB: 3 });
    const liaTab = await signedIn(lia);
    await reloadUntil(liaTab.page, async () => (await liaTab.page.getByTestId('data-gifted').innerText()).includes('3 GB'), 20_000);
    await liaTab.context.close();

    await page.reload();
    await expectVisible(page.getByTestId('stat-totalDataGifted').getByText('3 GB', { exact: true }));
  });

  it('resolves a stuck delivery from the operator queue: the points go back', async () => {
    const { page } = admin;
    const item = page.locator(`[data-testid="queue-item"][data-item-id="${stuckId}"]`);
    await expectVisible(item);
    await expectVisible(item.getByText('Provider unreachable'));
    await item.getByText('History').click();
    await expectVisible(item.getByText('points_reserved'));
    // The page with a waiting item and its history open, and then its confirmation, pass axe-core too.
    expect(await wcagViolations(page)).toEqual([]);
    const before = await ledgerBalance(sys, sam.id);
    await item.getByRole('button', { name: 'Refund' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Refund this item?' });
    await expectVisible(confirm.getByText("The 1,000 points go back to the user's balance."));
    expect(await wcagViolations(page)).toEqual([]);
    await confirm.getByRole('button', { name: 'Refund' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await expectVisible(page.getByText('Refunded; the user is emailed.'));
    await item.waitFor({ state: 'detached' });
    await waitFor(async () => (await ledgerBalance(sys, sam.id)) === before + 1000, { what: 'the points released' });
    await expectVisible(page.locator('[data-testid="audit-entry"][data-action="operator_refund"]').first());
  });

  it('downloads every user as CSV', async () => {
    const { page } = admin;
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export Data' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^users-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = csvLines(readFileSync((await download.path())!, 'utf8'));
    expect(lines[0]).toBe(ADMIN_EXPORT_COLUMNS.join(','));
    expect(lines).toHaveLength(4);
    expect(lines.find((l) => l.startsWith(lia.id))).toContain(lia.email);
  });

  it('passes axe-core in English and in Urdu (right to left)', async () => {
    await admin.page.goto('/admin');
    await expectVisible(admin.page.getByTestId('admin-user-row').first());
    expect(await wcagViolations(admin.page)).toEqual([]);

    const urdu = await signedIn(boss);
    // The interface language the admin picks (remembered by the SPA).
    await urdu.page.goto('/admin?lng=ur');
    await expectVisible(urdu.page.getByTestId('admin-user-row').first());
    await expect(urdu.page.locator('html').getAttribute('dir')).resolves.toBe('rtl');
    await expectVisible(urdu.page.getByRole('heading', { level: 1, name: 'ایڈمن ڈیش بورڈ' }));
    expect(await wcagViolations(urdu.page)).toEqual([]);
    await urdu.context.close();
  });

  it('shows Access Denied to a non-admin', async () => {
    const { context, page } = await signedIn(lia);
    await page.goto('/admin');
    await expectVisible(page.getByRole('heading', { level: 1, name: 'Access Denied' }));
    await expectVisible(page.getByText("You don't have admin privileges."));
    await expect(page.getByTestId('admin-user-row').count()).resolves.toBe(0);
    expect((await page.request.get('/api/admin/users')).status()).toBe(403);
    await context.close();
  });
});
