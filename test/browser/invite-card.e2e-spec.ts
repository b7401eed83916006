import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { DataSource } from 'typeorm';
import { SIGNUP_BONUS_POINTS } from '@esim/contracts';
import { extractCode, waitFor } from '@esim/testing';
import { credit } from '../redemption/redemption-support';
import { wcagViolations } from '../support/axe';
import { signUp, SignedUpUser, uniqueEmail } from '../support/accounts';
import { expectVisible, launchBrowser, PHONE, signInThroughForm } from '../support/browser';
import type { HttpClient } from '../support/http-client';
import { startSystem, System } from '../support/system';

/**
 * The dashboard's invite card in the real web app (docs/earning.md, "Referrals"), on a phone: the
 * code, the share button (the platform share sheet, or the link copied where there is none), a
 * friend who opened the link and signed up (the SPA carries the code to the verification), their
 * bonus once paid, and a friend from the inviter's own browser shown as not counted, with why;
 * the admins' linked accounts show the two accounts of that browser. axe-core finds no WCAG A/AA violation in English and Urdu. Needs `npm run build -w @esim/frontend` first.
 */
describe('web app: the invite card', () => {
  let sys: System;
  let browser: Browser;
  let ivo: SignedUpUser & { client: HttpClient };
  let ivoPage: { context: BrowserContext; page: Page };
  let admin: SignedUpUser;
  const ADMIN = uniqueEmail('admin');

  async function signedIn(user: SignedUpUser, locale: string): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ ...PHONE, baseURL: sys.url, locale, bypassCSP: true, serviceWorkers: 'block' });
    const page = await context.newPage();
    await signInThroughForm(page, user);
    return { context, page };
  }

  /** Opens the invitation link in `context` and signs up through the SPA's own forms. */
  async function signUpThroughLink(page: Page, link: string, name: string): Promise<string> {
    const email = uniqueEmail('friend');
    const before = sys.mail.messages.length;
    await page.goto(`${new URL(link).pathname}${new URL(link).search}&lng=en`);
    await page.getByLabel('Username').fill(name);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('correct horse battery');
    for (const box of await page.getByRole('checkbox').all()) await box.check();
    await page.getByRole('button', { name: 'Create account' }).click();
    const code = extractCode(await sys.mail.waitForMail(email, { after: before }));
    await page.getByLabel('Verification code').fill(code);
    await page.getByRole('button', { name: 'Verify email' }).click();
    await page.waitForURL(/\/dashboard/);
    return email;
  }

  beforeAll(async () => {
    sys = await startSystem({ serveSpa: true, env: { REFERRAL_BONUS_POINTS: '200', ADMIN_EMAILS: ADMIN } });
    admin = await signUp(sys.client(), sys.mail, { email: ADMIN, name: 'Risk Admin' });
    const client = sys.client();
    ivo = { ...(await signUp(client, sys.mail, { name: 'Ivo Inviter', deviceId: randomUUID() })), client };
    browser = await launchBrowser();
    ivoPage = await signedIn(ivo, 'en');
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await sys?.stop();
  });

  it('shows the code and shares the link (copied where the platform has no share sheet) (en)', async () => {
    const { page, context } = ivoPage;
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto('/dashboard?lng=en');
    const card = page.getByTestId('invite-card');
    await expectVisible(card.getByRole('heading', { name: 'Invite friends' }));
    const { code, link } = (await ivo.client.get('/api/referrals')).json() as { code: string; link: string };
    await expect(card.getByTestId('invite-code').textContent()).resolves.toBe(code);
    await expectVisible(card.getByText('No friends yet. Share your invitation to bring one.'));
    // Chromium headless has no share sheet here: the link is copied.
    await page.evaluate(() => Object.defineProperty((globalThis as unknown as { navigator: object }).navigator, 'share', { value: undefined, configurable: true }));
    await card.getByRole('button', { name: 'Share invitation' }).click();
    await expectVisible(page.getByText('Invitation link copied'));
    const readClipboard = () => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText();
    await expect(page.evaluate(readClipboard)).resolves.toBe(link);
    expect(await wcagViolations(page)).toEqual([]);
  });

  it('uses the platform share sheet where there is one', async () => {
    const { page } = ivoPage;
    await page.goto('/dashboard?lng=en');
    type Shared = { shared: Array<{ url: string }>; navigator: object };
    await page.evaluate(() => {
      const g = globalThis as unknown as Shared;
      g.shared = [];
      Object.defineProperty(g.navigator, 'share', { value: async (data: { url: string }) => void g.shared.push(data), configurable: true });
    });
    await page.getByTestId('invite-card').getByRole('button', { name: 'Share invitation' }).click();
    const { link } = (await ivo.client.get('/api/referrals')).json() as { link: string };
    await waitFor(async () => (await page.evaluate(() => (globalThis as unknown as Shared).shared.length)) === 1, { what: 'the share sheet' });
    await expect(page.evaluate(() => (globalThis as unknown as Shared).shared[0].url)).resolves.toBe(link);
  });

  it('lists a friend who signed up through the link, their bonus once paid, and a friend from the inviter’s own browser as not counted', async () => {
    const { link } = (await ivo.client.get('/api/referrals')).json() as { link: string };
    // A friend on a phone of their own.
    const friend = await browser.newContext({ ...PHONE, baseURL: sys.url, locale: 'en', bypassCSP: true, serviceWorkers: 'block' });
    await signUpThroughLink(await friend.newPage(), link, 'Gil Friend');
    // Someone signing up in Ivo's own browser (same first-party device id) after signing him out.
    const same = await browser.newContext({ ...PHONE, baseURL: sys.url, locale: 'en', bypassCSP: true, serviceWorkers: 'block' });
    const samePage = await same.newPage();
    await samePage.goto('/auth?login=true&lng=en');
    await samePage.locator('#root[data-app="ready"]').waitFor({ state: 'attached' });
    await samePage.getByLabel('Email').fill(ivo.email);
    await samePage.getByLabel('Password', { exact: true }).fill(ivo.password);
    await samePage.getByRole('button', { name: 'Log in' }).click();
    await samePage.waitForURL(/\/dashboard/);
    await same.clearCookies();
    await signUpThroughLink(samePage, link, 'Hal Samephone');

    type Invited = Array<{ name: string; status: string }>;
    await waitFor(async () => ((await ivo.client.get('/api/referrals')).json().invited as Invited).length === 2, { what: 'two referrals' });
    const gil = (await sys.apps.identity!.get(DataSource).query(`SELECT id FROM users WHERE name = 'Gil Friend'`))[0].id as string;
    await waitFor(async () => (await (await ivo.client.get('/api/user')).json().points) === SIGNUP_BONUS_POINTS, { what: 'settled' });
    await credit(sys, gil, 1000);
    await waitFor(async () => ((await ivo.client.get('/api/referrals')).json().invited as Invited).some((i) => i.name === 'Gil' && i.status === 'paid'), { what: "Gil's referral paid" });

    const { page } = ivoPage;
    await page.goto('/dashboard?lng=en');
    const friends = page.getByTestId('invited-friend');
    await expectVisible(friends.filter({ hasText: 'Gil' }).getByText('+200 MB for you'));
    await expectVisible(friends.filter({ hasText: 'Hal' }).getByText('Not counted: they signed up on a device you use.'));
    expect(await wcagViolations(page)).toEqual([]);
    await page.goto('/history?lng=en');
    await expectVisible(page.getByTestId('statement-entry').filter({ hasText: 'Invitation bonus' }));
  });

  it('shows admins the accounts the shared browser links, with the reason, in English and Urdu', async () => {
    for (const locale of ['en', 'ur']) {
      const { context, page } = await signedIn(admin, locale);
      await page.goto(`/admin?lng=${locale}`);
      const group = page.getByTestId('linked-group').filter({ hasText: 'Hal Samephone' });
      await expectVisible(group.getByText('Ivo Inviter'));
      await expectVisible(group.getByRole('heading', { name: locale === 'en' ? 'Same device' : 'ایک ہی آلہ' }));
      expect(await wcagViolations(page)).toEqual([]);
      await context.close();
    }
  });

  it('says the same in Urdu, right to left', async () => {
    const { context, page } = await signedIn(ivo, 'ur');
    await page.goto('/dashboard?lng=ur');
    await expect(page.locator('html').getAttribute('dir')).resolves.toBe('rtl');
    const card = page.getByTestId('invite-card');
    await expectVisible(card.getByRole('heading', { name: 'دوستوں کو مدعو کریں' }));
    await expectVisible(card.getByText('شمار نہیں ہوا: انہوں نے ایسے آلے پر سائن اپ کیا جو آپ استعمال کرتے ہیں۔'));
    expect(await wcagViolations(page)).toEqual([]);
    await context.close();
  });
});
