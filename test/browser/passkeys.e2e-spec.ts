import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { Client } from 'pg';
import { TEST_DATABASE_URL } from '@esim/testing';
import { signUp, SignedUpUser } from '../support/accounts';
import { wcagViolations } from '../support/axe';
import { expectVisible, launchBrowser, PHONE } from '../support/browser';
import { startSystem, System } from '../support/system';

/**
 * Passkeys in the real web app on a phone-sized Chromium with a virtual authenticator (Chrome
 * DevTools Protocol `WebAuthn`): add one on /profile, sign in with it (both factors, even with
 * two-factor sign-in on), remove it; axe-core in English and Urdu. The system answers on
 * `localhost`: a passkey's relying party is a domain, never an IP address.
 * Needs `npm run build -w @esim/frontend` first.
 */
describe('web app: passkeys in the browser', () => {
  let sys: System;
  let browser: Browser;
  let identityDb: Client;
  let user: SignedUpUser;
  let context: BrowserContext;
  let page: Page;
  let cdp: CDPSession;
  let authenticatorId = '';
  /** The body of a passkey sign-in the browser sent, to replay. */
  let signInBody = '';

  /** A phone-sized context in `locale`; CSP is bypassed so axe-core can be injected. */
  async function phone(locale: string): Promise<{ context: BrowserContext; page: Page }> {
    const ctx = await browser.newContext({ ...PHONE, baseURL: sys.url, locale, bypassCSP: true });
    await ctx.addInitScript(
      (lng) => (globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } }).localStorage.setItem('locale', lng),
      locale,
    );
    return { context: ctx, page: await ctx.newPage() };
  }

  /** The virtual authenticator of `target`'s browser: a phone's platform authenticator that verifies its user. */
  async function virtualAuthenticator(target: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
    const session = await target.context().newCDPSession(target);
    await session.send('WebAuthn.enable');
    const { authenticatorId: id } = await session.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    });
    return { cdp: session, authenticatorId: id };
  }

  const storedPasskeys = async () => (await identityDb.query('SELECT id, counter, last_used_at FROM passkeys WHERE user_id = $1', [user.id])).rows;

  beforeAll(async () => {
    sys = await startSystem({ serveSpa: true, host: 'localhost' });
    identityDb = new Client({ connectionString: TEST_DATABASE_URL, options: `-c search_path=${sys.ns.schema('identity')}` });
    await identityDb.connect();
    browser = await launchBrowser();
    user = await signUp(sys.client(), sys.mail, { name: 'Paula Passkey' });
    ({ context, page } = await phone('en'));
    ({ cdp, authenticatorId } = await virtualAuthenticator(page));
  });
  afterAll(async () => {
    await browser?.close();
    await identityDb?.end();
    await sys?.stop();
  });

  it('adds a passkey on /profile: the authenticator holds it and identity stores its public key', async () => {
    await page.goto('/auth?login=true&lng=en');
    await page.locator('#root[data-app="ready"]').waitFor({ state: 'attached' });
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(/\/dashboard/);
    await page.goto('/profile');
    await expectVisible(page.getByText('No passkeys yet.'));

    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await expectVisible(page.getByText('Passkey added').first());
    await expectVisible(page.getByTestId('passkey-list').getByText('Passkey 1'));
    await expectVisible(page.getByText('Not used yet'));

    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0]).toMatchObject({ isResidentCredential: true, rpId: 'localhost' });
    const rows = await storedPasskeys();
    expect(rows).toHaveLength(1);
    expect(Buffer.from(credentials[0].credentialId, 'base64').toString('base64url')).toBe(rows[0].id);
    expect(await wcagViolations(page)).toEqual([]);
  });

  it('signs in with the passkey alone, even with two-factor sign-in on', async () => {
    // Two-factor sign-in on, through the API of the session the page holds.
    const api = sys.client();
    for (const c of await context.cookies()) api.cookies.set(c.name, c.value);
    const { secret } = (await api.post('/api/user/2fa/setup')).json<{ secret: string }>();
    const { generateSync } = await import('otplib');
    expect((await api.post('/api/user/2fa/enable', { code: generateSync({ secret }) })).status).toBe(200);

    await page.getByRole('button', { name: 'Sign out' }).first().click();
    await page.waitForURL((url) => !url.pathname.startsWith('/profile'));
    await page.goto('/auth?login=true&lng=en');
    await page.locator('#root[data-app="ready"]').waitFor({ state: 'attached' });
    expect(await wcagViolations(page)).toEqual([]);
    const [request] = await Promise.all([
      page.waitForRequest((r) => r.url().endsWith('/api/login/passkey') && r.method() === 'POST'),
      page.getByRole('button', { name: 'Sign in with a passkey' }).click(),
    ]);
    signInBody = request.postData() ?? '';
    await page.waitForURL(/\/dashboard/);
    const [row] = await storedPasskeys();
    expect(row.last_used_at).toBeInstanceOf(Date);
  });

  it('refuses a signed-in answer replayed by someone else, with or without a ceremony of their own', async () => {
    expect(signInBody).toContain('"response"');
    const thief = sys.client();
    const bare = await thief.post('/api/login/passkey', JSON.parse(signInBody));
    expect(bare.status).toBe(401);
    expect(bare.json()).toMatchObject({ reason: 'passkey_sign_in_refused' });

    expect((await thief.post('/api/login/passkey/options')).status).toBe(200);
    const replayed = await thief.post('/api/login/passkey', JSON.parse(signInBody));
    expect(replayed.status).toBe(401);
    expect(replayed.json()).toMatchObject({ reason: 'passkey_sign_in_refused' });
    expect((await thief.get('/api/user')).status).toBe(401);
  });

  it('shows the passkeys in Urdu (axe) and removes one', async () => {
    const urdu = await phone('ur');
    await urdu.context.addCookies(await context.cookies());
    await urdu.page.goto('/profile?lng=ur');
    await expectVisible(urdu.page.getByRole('heading', { name: 'پاس کیز' }));
    await expect(urdu.page.locator('html').getAttribute('dir')).resolves.toBe('rtl');
    await expectVisible(urdu.page.getByTestId('passkey-list').getByText('Passkey 1'));
    expect(await wcagViolations(urdu.page)).toEqual([]);

    await urdu.page.getByRole('button', { name: 'پاس کی Passkey 1 ہٹائیں' }).click();
    await expectVisible(urdu.page.getByText('ابھی کوئی پاس کی نہیں ہے۔'));
    expect(await storedPasskeys()).toHaveLength(0);
    await urdu.context.close();

    // The authenticator still holds it, but it opens nothing any more.
    await page.context().clearCookies();
    await page.goto('/auth?login=true&lng=en');
    await page.locator('#root[data-app="ready"]').waitFor({ state: 'attached' });
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expectVisible(page.getByText('Could not sign in with a passkey').first());
    expect(page.url()).toContain('/auth');
  });
});
