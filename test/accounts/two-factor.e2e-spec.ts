import { generateSync } from 'otplib';
import { signUp, SignedUpUser } from '../support/accounts';
import type { HttpClient, HttpResponse } from '../support/http-client';
import { AccountsSystem, isSignedIn, login, startAccountsSystem } from './accounts-system';

/** Sign-in attempts one account may make per window: passwords and second-factor codes alike. */
const ACCOUNT_LIMIT = 5;
const STEP_SECONDS = 30;

const stepNow = () => Math.floor(Date.now() / 1000 / STEP_SECONDS);
/** The TOTP an authenticator app shows for `secret` at time-step `step`. */
const totpAt = (secret: string, step: number) => generateSync({ secret, epoch: step * STEP_SECONDS });
/** The TOTP an authenticator app shows for `secret`, `steps` time-steps from now. */
const totp = (secret: string, steps = 0) => totpAt(secret, stepNow() + steps);

const expectWrongCode = (res: HttpResponse, status: number) => {
  expect(res.status).toBe(status);
  expect(res.json()).toMatchObject({ reason: status === 401 ? 'two_factor_sign_in_code_invalid' : 'two_factor_code_invalid' });
};

/**
 * Two-factor sign-in end to end through the real gateway and identity: enrolment, the sign-in's
 * second step with a TOTP or a recovery code, replays, the login limits, and disabling.
 */
describe('two-factor sign-in', () => {
  let sys: AccountsSystem;

  beforeAll(async () => {
    sys = await startAccountsSystem({ gatewayEnv: { RATE_LIMIT_LOGIN_ACCOUNT: `${ACCOUNT_LIMIT}/600` } });
  });
  afterAll(() => sys?.stop());

  /** A signed-up user, signed in on `browser`, who enrolled: their secret and recovery codes. */
  async function enrolled(browser: HttpClient): Promise<SignedUpUser & { secret: string; recoveryCodes: string[]; enrolCode: string }> {
    const user = await signUp(browser, sys.mail);
    const setup = await browser.post('/api/user/2fa/setup');
    expect(setup.status).toBe(200);
    const { secret, otpauthUrl } = setup.json<{ secret: string; otpauthUrl: string }>();
    expect(otpauthUrl).toMatch(/^otpauth:\/\/totp\//);
    expect(otpauthUrl).toContain(`secret=${secret}`);
    const enrolCode = totp(secret);
    const enable = await browser.post('/api/user/2fa/enable', { code: enrolCode });
    expect(enable.status).toBe(200);
    return { ...user, secret, recoveryCodes: enable.json().recoveryCodes, enrolCode };
  }

  const twoFactorRow = async (userId: string) =>
    (await sys.identityDb.query('SELECT secret, pending_secret, last_time_step FROM two_factor WHERE user_id = $1', [userId])).rows[0];

  it('enrols with a code from the app, stores the secret encrypted and the ten recovery codes hashed', async () => {
    const browser = sys.client();
    const user = await signUp(browser, sys.mail);
    expect((await browser.get('/api/user')).json().settings.twoFactorAuth).toBe(false);

    const { secret } = (await browser.post('/api/user/2fa/setup')).json<{ secret: string }>();
    // A code from another secret does not turn it on.
    expectWrongCode(await browser.post('/api/user/2fa/enable', { code: totp('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP') }), 400);
    expect((await twoFactorRow(user.id)).secret).toBeNull();

    const enable = await browser.post('/api/user/2fa/enable', { code: totp(secret) });
    expect(enable.status).toBe(200);
    const { recoveryCodes, user: view } = enable.json<{ recoveryCodes: string[]; user: { settings: { twoFactorAuth: boolean } } }>();
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[A-Z2-7]{5}-[A-Z2-7]{5}$/);
    expect(view.settings.twoFactorAuth).toBe(true);
    expect((await browser.get('/api/user')).json().settings.twoFactorAuth).toBe(true);

    const row = await twoFactorRow(user.id);
    expect(row.secret).toEqual(expect.any(String));
    expect(row.secret).not.toContain(secret);
    expect(row.pending_secret).toBeNull();
    const hashes = (await sys.identityDb.query('SELECT code_hash FROM two_factor_recovery_codes WHERE user_id = $1', [user.id])).rows;
    expect(hashes).toHaveLength(10);
    for (const { code_hash } of hashes) {
      expect(code_hash).toMatch(/^\$argon2id\$/);
      for (const code of recoveryCodes) expect(code_hash).not.toContain(code.replace('-', ''));
    }
    // Enrolled once is enough: a second setup would replace a working secret.
    expect((await browser.post('/api/user/2fa/setup')).json()).toMatchObject({ code: 'conflict', reason: 'two_factor_already_enabled' });
  });

  it('refuses to switch twoFactorAuth through the settings and saves nothing', async () => {
    const browser = sys.client();
    const user = await signUp(browser, sys.mail);
    const res = await browser.patch('/api/user/settings', { twoFactorAuth: true });
    expect(res.status).toBe(409);
    expect(res.json()).toMatchObject({ code: 'conflict', reason: 'two_factor_needs_enrolment' });
    const { rows } = await sys.identityDb.query(`SELECT settings->>'twoFactorAuth' AS on FROM users WHERE id = $1`, [user.id]);
    expect(rows[0].on).not.toBe('true');
    expect((await browser.get('/api/user')).json().settings.twoFactorAuth).toBe(false);
    // The other toggles still save.
    expect((await browser.patch('/api/user/settings', { dataAlerts: false })).status).toBe(200);
  });

  it('asks for the code after the right password, signs nobody in until then, and refuses a replayed code', async () => {
    const user = await enrolled(sys.client());
    const browser = sys.client();

    const first = await login(browser, user.email, user.password);
    expect(first.status).toBe(200);
    expect(first.json()).toEqual({ twoFactorRequired: true });
    expect(await isSignedIn(browser)).toBe(false);

    // Enrolment spent its code's time-step: that code cannot sign in. Nor can a stale one.
    expectWrongCode(await browser.post('/api/login/2fa', { code: user.enrolCode }), 401);
    expectWrongCode(await browser.post('/api/login/2fa', { code: totp(user.secret, -10) }), 401);
    expect(await isSignedIn(browser)).toBe(false);

    // The next step's code (an app whose clock runs a little ahead) is new, and signs in.
    const nextStep = stepNow() + 1;
    const next = totpAt(user.secret, nextStep);
    const ok = await browser.post('/api/login/2fa', { code: next });
    expect(ok.status).toBe(200);
    expect(ok.json()).toMatchObject({ id: user.id, email: user.email });
    expect(await isSignedIn(browser)).toBe(true);
    expect(Number((await twoFactorRow(user.id)).last_time_step)).toBe(nextStep);

    // The same code, in the same window, from another browser that knows the password: refused.
    const thief = sys.client();
    expect((await login(thief, user.email, user.password)).json()).toEqual({ twoFactorRequired: true });
    expectWrongCode(await thief.post('/api/login/2fa', { code: next }), 401);
    expect(await isSignedIn(thief)).toBe(false);
  });

  it('lets one of two racing sign-ins with the same code or recovery code through, never both', async () => {
    const user = await enrolled(sys.client());
    const attempt = async (codeFor: () => string) => {
      const browsers = [sys.client(), sys.client()];
      for (const b of browsers) expect((await login(b, user.email, user.password)).json()).toEqual({ twoFactorRequired: true });
      const code = codeFor();
      const answers = await Promise.all(browsers.map((b) => b.post('/api/login/2fa', { code })));
      expect(answers.map((r) => r.status).sort()).toEqual([200, 401]);
    };
    await attempt(() => totpAt(user.secret, stepNow() + 1));
    await attempt(() => user.recoveryCodes[0]);
  });

  it('answers 401 to a code without a password step in this session', async () => {
    const user = await enrolled(sys.client());
    const res = await sys.client().post('/api/login/2fa', { code: totp(user.secret, 1) });
    expect(res.status).toBe(401);
    expect(res.json()).toMatchObject({ reason: 'two_factor_not_pending' });
    // Nothing was spent: the code still works after the password.
    const browser = sys.client();
    await login(browser, user.email, user.password);
    expect((await browser.post('/api/login/2fa', { code: totp(user.secret, 1) })).status).toBe(200);
  });

  it('signs in with a recovery code exactly once', async () => {
    const user = await enrolled(sys.client());
    const [code] = user.recoveryCodes;

    const browser = sys.client();
    await login(browser, user.email, user.password);
    expect((await browser.post('/api/login/2fa', { code: code.toLowerCase() })).status).toBe(200);
    expect(await isSignedIn(browser)).toBe(true);
    const { rows } = await sys.identityDb.query('SELECT count(*)::int AS n FROM two_factor_recovery_codes WHERE user_id = $1 AND used_at IS NOT NULL', [
      user.id,
    ]);
    expect(rows[0].n).toBe(1);

    const again = sys.client();
    await login(again, user.email, user.password);
    expectWrongCode(await again.post('/api/login/2fa', { code }), 401);
    expect(await isSignedIn(again)).toBe(false);
    // Another one still works.
    expect((await again.post('/api/login/2fa', { code: user.recoveryCodes[1] })).status).toBe(200);
  });

  it('counts wrong codes toward the account login limit, then refuses even the right code', async () => {
    const user = await enrolled(sys.client());
    const spentStep = (await twoFactorRow(user.id)).last_time_step;
    const browser = sys.client();
    await login(browser, user.email, user.password); // attempt 1
    for (let i = 2; i <= ACCOUNT_LIMIT; i++) expectWrongCode(await browser.post('/api/login/2fa', { code: i % 2 ? '123456' : 'AAAAA-AAAAA' }), 401);
    const refused = await browser.post('/api/login/2fa', { code: totp(user.secret, 1) });
    expect(refused.status).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'rate_limited' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await isSignedIn(browser)).toBe(false);
    // The refused right code was not spent either.
    expect((await twoFactorRow(user.id)).last_time_step).toBe(spentStep);
  });

  it('disables with a recovery code, refuses a wrong code, and signs in with the password alone afterwards', async () => {
    const browser = sys.client();
    const user = await enrolled(browser);

    expectWrongCode(await browser.post('/api/user/2fa/disable', { code: 'AAAAA-AAAAA' }), 400);
    expect((await browser.get('/api/user')).json().settings.twoFactorAuth).toBe(true);

    const off = await browser.post('/api/user/2fa/disable', { code: user.recoveryCodes[0] });
    expect(off.status).toBe(200);
    expect(off.json().user.settings.twoFactorAuth).toBe(false);
    expect(await twoFactorRow(user.id)).toBeUndefined();
    const { rows } = await sys.identityDb.query('SELECT count(*)::int AS n FROM two_factor_recovery_codes WHERE user_id = $1', [user.id]);
    expect(rows[0].n).toBe(0);

    const later = sys.client();
    const res = await login(later, user.email, user.password);
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({ id: user.id });
    expect((await browser.post('/api/user/2fa/disable', { code: totp(user.secret, 1) })).json()).toMatchObject({ reason: 'two_factor_not_enabled' });
  });

  it('disables with a TOTP from the app', async () => {
    const browser = sys.client();
    const user = await enrolled(browser);
    const off = await browser.post('/api/user/2fa/disable', { code: totp(user.secret, 1) });
    expect(off.status).toBe(200);
    expect(off.json().user.settings.twoFactorAuth).toBe(false);
  });

  it('erases the secret and the recovery codes with the account', async () => {
    const browser = sys.client();
    const user = await enrolled(browser);
    expect((await browser.delete('/api/user/account')).status).toBe(200);
    expect(await twoFactorRow(user.id)).toBeUndefined();
    const { rows } = await sys.identityDb.query('SELECT count(*)::int AS n FROM two_factor_recovery_codes WHERE user_id = $1', [user.id]);
    expect(rows[0].n).toBe(0);
  });

  it('refuses a malformed code with the contract 400 and writes nothing', async () => {
    const browser = sys.client();
    const user = await enrolled(browser);
    const before = await twoFactorRow(user.id);
    const res = await browser.post('/api/user/2fa/disable', { code: 'not a code' });
    expect(res.status).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation' });
    expect(await twoFactorRow(user.id)).toEqual(before);
  });
});
