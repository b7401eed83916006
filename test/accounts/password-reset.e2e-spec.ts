import { createHash } from 'node:crypto';
import http from 'node:http';
import { PasswordResetRequested } from '@esim/contracts';
import { signUp, SignedUpUser } from '../support/accounts';
import { AccountsSystem, eventCount, isSignedIn, login, nextEvent, startAccountsSystem } from './accounts-system';

const NEW_PASSWORD = 'a fresh reset password';

/** Security checks 10 and 4 (reset): reset links from PUBLIC_URL, 256-bit tokens stored hashed, single use, 1 hour, every session ended. */
describe('password reset', () => {
  let sys: AccountsSystem;

  beforeAll(async () => {
    sys = await startAccountsSystem();
  });
  afterAll(() => sys?.stop());

  /** Asks for a link the way a browser does, and answers the token the emailed link carries. */
  const requestLink = async (user: SignedUpUser) => {
    const before = await eventCount(sys, PasswordResetRequested, user.email);
    expect((await sys.client().post('/api/forgot-password', { email: user.email })).status).toBe(200);
    // Identity issues the link right after its answer, which costs the same for every address.
    const event = await nextEvent(sys, PasswordResetRequested, user.email, before);
    return { url: new URL(event.resetUrl), token: new URL(event.resetUrl).searchParams.get('token')! };
  };
  const reset = (token: string, newPassword = NEW_PASSWORD) => sys.client().post('/api/reset-password', { token, newPassword });

  it('builds the link from PUBLIC_URL, whatever Host the request names', async () => {
    const user = await signUp(sys.client(), sys.mail);
    const before = await eventCount(sys, PasswordResetRequested, user.email);
    const { port } = new URL(sys.url);
    await new Promise<void>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/api/forgot-password',
          headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'content-type': 'application/json' },
        },
        (res) => {
          res.resume();
          res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`status ${res.statusCode}`))));
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify({ email: user.email }));
    });
    const event = await nextEvent(sys, PasswordResetRequested, user.email, before);
    expect(new URL(event.resetUrl).origin).toBe(new URL(sys.url).origin);
    expect(new URL(event.resetUrl).pathname).toBe('/reset-password');
  });

  it('carries at least 128 random bits and stores only their SHA-256', async () => {
    const user = await signUp(sys.client(), sys.mail);
    const { token } = await requestLink(user);
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(token.length * 6).toBeGreaterThanOrEqual(128);
    const { rows } = await sys.identityDb.query(
      'SELECT token_hash, expires_at, created_at FROM password_reset_tokens WHERE user_id = $1 AND NOT used',
      [user.id],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].token_hash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(rows[0].expires_at.getTime() - rows[0].created_at.getTime()).toBeLessThanOrEqual(60 * 60_000 + 1000);
  });

  it('sets the new password, ends every session of the user, and works only once', async () => {
    const laptop = sys.client();
    const user = await signUp(laptop, sys.mail);
    const phone = sys.client();
    expect((await login(phone, user.email, user.password)).status).toBe(200);
    const { token } = await requestLink(user);

    const res = await reset(token);
    expect(res.status).toBe(200);
    expect(await isSignedIn(laptop)).toBe(false);
    expect(await isSignedIn(phone)).toBe(false);
    expect((await login(sys.client(), user.email, user.password)).status).toBe(401);
    expect((await login(sys.client(), user.email, NEW_PASSWORD)).status).toBe(200);

    const again = await reset(token, 'yet another password');
    expect(again.status).toBe(400);
    expect(again.json().message).toBe('Invalid or expired reset link');
    expect((await login(sys.client(), user.email, NEW_PASSWORD)).status).toBe(200);
  });

  it('refuses an expired link', async () => {
    const user = await signUp(sys.client(), sys.mail);
    const { token } = await requestLink(user);
    await sys.identityDb.query("UPDATE password_reset_tokens SET expires_at = now() - interval '1 second' WHERE user_id = $1", [user.id]);
    const res = await reset(token);
    expect(res.status).toBe(400);
    expect(res.json().message).toBe('Invalid or expired reset link');
    expect((await login(sys.client(), user.email, user.password)).status).toBe(200);
  });

  it('retires an older link when a newer one is sent', async () => {
    const user = await signUp(sys.client(), sys.mail);
    const older = await requestLink(user);
    const newer = await requestLink(user);
    expect((await reset(older.token)).status).toBe(400);
    expect((await reset(newer.token)).status).toBe(200);
  });
});
