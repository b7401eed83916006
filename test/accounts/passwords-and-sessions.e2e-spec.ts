import argon2 from 'argon2';
import { signUp, uniqueEmail } from '../support/accounts';
import { AccountsSystem, clientWithCookies, isSignedIn, login, startAccountsSystem } from './accounts-system';

const ARGON2ID = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$/;

/** Security checks 1-4 and 11: password storage, the session cookie, its rotation and its end on the server. */
describe('passwords and sessions', () => {
  let sys: AccountsSystem;
  const storedHash = async (email: string) =>
    (await sys.identityDb.query('SELECT password_hash FROM users WHERE email = $1', [email])).rows[0].password_hash as string;

  beforeAll(async () => {
    sys = await startAccountsSystem();
  });
  afterAll(() => sys?.stop());

  it('stores passwords as argon2id with at least m=19456 KiB, t=2, p=1', async () => {
    const user = await signUp(sys.client(), sys.mail);
    const hash = await storedHash(user.email);
    const [, m, t, p] = ARGON2ID.exec(hash) ?? [];
    expect(Number(m)).toBeGreaterThanOrEqual(19456);
    expect(Number(t)).toBeGreaterThanOrEqual(2);
    expect(Number(p)).toBeGreaterThanOrEqual(1);
    expect(hash).not.toContain(user.password);
  });

  it('upgrades a weaker hash when its owner signs in', async () => {
    const user = await signUp(sys.client(), sys.mail);
    const weak = await argon2.hash(user.password, { type: argon2.argon2id, memoryCost: 4096, timeCost: 1, parallelism: 1 });
    await sys.identityDb.query('UPDATE users SET password_hash = $2 WHERE email = $1', [user.email, weak]);

    expect((await login(sys.client(), user.email, user.password)).status).toBe(200);
    const upgraded = await storedHash(user.email);
    expect(upgraded).not.toBe(weak);
    expect(Number(ARGON2ID.exec(upgraded)?.[1])).toBeGreaterThanOrEqual(19456);
    expect((await login(sys.client(), user.email, user.password)).status).toBe(200);
  });

  it('sets an HttpOnly, SameSite, host-only cookie whose id carries at least 128 random bits', async () => {
    const user = await signUp(sys.client(), sys.mail);
    const res = await login(sys.client(), user.email, user.password);
    const [cookie] = res.headers.getSetCookie();
    expect(cookie).toMatch(/;\s*HttpOnly/i);
    expect(cookie).toMatch(/;\s*SameSite=(Lax|Strict)/i);
    expect(cookie).not.toMatch(/;\s*Domain=/i);
    expect(cookie).toMatch(/;\s*Path=\//i);
    const id = /^s:([^.]+)\./.exec(decodeURIComponent(cookie.split(';')[0].split('=')[1]))?.[1] ?? '';
    expect(id).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(id.length * 6).toBeGreaterThanOrEqual(128); // base64url: 6 bits a character
  });

  it('gives a new session id at login and rejects the old one afterwards', async () => {
    const user = await signUp(sys.client(), sys.mail);
    const browser = sys.client();
    expect((await login(browser, user.email, user.password)).status).toBe(200);
    const before = new Map(browser.cookies);
    expect((await login(browser, user.email, user.password)).status).toBe(200);
    expect([...browser.cookies.values()]).not.toEqual([...before.values()]);
    expect(await isSignedIn(browser)).toBe(true);
    expect(await isSignedIn(clientWithCookies(sys, before))).toBe(false);
  });

  it('gives a new session id at email verification and rejects the old one afterwards', async () => {
    const browser = sys.client();
    await signUp(browser, sys.mail);
    const before = new Map(browser.cookies);
    const second = await signUp(browser, sys.mail, { email: uniqueEmail('second') });
    expect([...browser.cookies.values()]).not.toEqual([...before.values()]);
    expect((await browser.get('/api/user')).json().id).toBe(second.id);
    expect(await isSignedIn(clientWithCookies(sys, before))).toBe(false);
  });

  it('ends the session on the server at logout: the old cookie no longer works', async () => {
    const browser = sys.client();
    await signUp(browser, sys.mail);
    const stolen = new Map(browser.cookies);
    expect((await browser.post('/api/logout')).status).toBe(200);
    expect(await isSignedIn(clientWithCookies(sys, stolen))).toBe(false);
  });

  it('a password change ends the other sessions and keeps the one that made it', async () => {
    const laptop = sys.client();
    const user = await signUp(laptop, sys.mail);
    const phone = sys.client();
    expect((await login(phone, user.email, user.password)).status).toBe(200);

    const newPassword = 'a brand new passphrase';
    const changed = await laptop.patch('/api/user/profile', { currentPassword: user.password, newPassword, confirmPassword: newPassword });
    expect(changed.status).toBe(200);
    expect(await isSignedIn(laptop)).toBe(true);
    expect(await isSignedIn(phone)).toBe(false);
    expect((await login(sys.client(), user.email, user.password)).status).toBe(401);
    expect((await login(sys.client(), user.email, newPassword)).status).toBe(200);
  });

  it('sends HSTS, a strict CSP, nosniff, and no-store on authenticated answers', async () => {
    const browser = sys.client();
    await signUp(browser, sys.mail);
    const res = await browser.get('/api/user');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toMatch(/no-store/);
    expect(Number(/max-age=(\d+)/.exec(res.headers.get('strict-transport-security') ?? '')?.[1])).toBeGreaterThanOrEqual(31_536_000);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/(^|;)\s*object-src 'none'/);
    expect(csp).toMatch(/(^|;)\s*base-uri 'none'/);
    expect(csp).toMatch(/(^|;)\s*frame-ancestors 'none'/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });
});
