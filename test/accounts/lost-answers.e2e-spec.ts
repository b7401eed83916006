import Redis from 'ioredis';
import { Client } from 'pg';
import { PasswordResetRequested } from '@esim/contracts';
import { TEST_DATABASE_URL, TEST_REDIS_URL, waitFor } from '@esim/testing';
import type { HttpClient } from '../support/http-client';
import { signUp, SignedUpUser } from '../support/accounts';
import { AccountsSystem, eventCount, isSignedIn, login, nextEvent, startAccountsSystem } from './accounts-system';

const RPC_TIMEOUT_MS = 2000;
const NEW_PASSWORD = 'a password set while nobody listened';

/**
 * A reset, a password change or a deletion whose answer never reaches the gateway (identity was
 * slow, the RPC timed out) still takes effect in identity. The sessions it must end then end
 * anyway, from identity's event, not from the gateway seeing the answer.
 */
describe('sessions end when the answer of the change is lost', () => {
  let sys: AccountsSystem;
  let redis: Redis;

  beforeAll(async () => {
    sys = await startAccountsSystem({ gatewayEnv: { RPC_TIMEOUT_MS: String(RPC_TIMEOUT_MS) } });
    redis = new Redis(TEST_REDIS_URL, { keyPrefix: `${sys.ns.id}:` });
  });
  afterAll(async () => {
    redis?.disconnect();
    await sys?.stop();
  });

  /** Whether the gateway still holds the browser's session (asked of Redis, not of a route that could end it). */
  const sessionStored = async (client: HttpClient) => {
    const signed = decodeURIComponent(client.cookies.get('sid') ?? '');
    const sid = /^s:([^.]+)\./.exec(signed)?.[1];
    if (!sid) throw new Error('the browser holds no session cookie');
    return (await redis.exists(`sess:${sid}`)) === 1;
  };

  /**
   * Holds the account's row locked, as a slow identity would: the call waits in identity past the
   * gateway's timeout, and goes through when the lock is released.
   */
  const holdingAccount = async (userId: string, work: () => Promise<void>) => {
    const db = new Client({ connectionString: TEST_DATABASE_URL, options: `-c search_path=${sys.ns.schema('identity')}` });
    await db.connect();
    try {
      await db.query('BEGIN');
      await db.query('SELECT 1 FROM users WHERE id = $1 FOR UPDATE', [userId]);
      await work();
      await db.query('COMMIT');
    } finally {
      await db.end();
    }
  };
  const expectTimedOut = (res: { status: number; json(): { code: string } }) => {
    expect(res.status).toBe(503);
    expect(res.json().code).toBe('unavailable');
  };
  const signedOut = (client: HttpClient, what: string) => waitFor(async () => !(await sessionStored(client)), { what, timeoutMs: 15_000 });
  const signedInTwice = async () => {
    const laptop = sys.client();
    const user = await signUp(laptop, sys.mail);
    const phone = sys.client();
    expect((await login(phone, user.email, user.password)).status).toBe(200);
    return { user, laptop, phone };
  };
  const resetToken = async (user: SignedUpUser) => {
    const before = await eventCount(sys, PasswordResetRequested, user.email);
    expect((await sys.client().post('/api/forgot-password', { email: user.email })).status).toBe(200);
    return new URL((await nextEvent(sys, PasswordResetRequested, user.email, before)).resetUrl).searchParams.get('token')!;
  };

  it('a reset that timed out still ends every session signed in before it, and only those', async () => {
    const { user, laptop, phone } = await signedInTwice();
    const token = await resetToken(user);

    await holdingAccount(user.id, async () => {
      expectTimedOut(await sys.client().post('/api/reset-password', { token, newPassword: NEW_PASSWORD }));
    });
    await waitFor(async () => (await login(sys.client(), user.email, NEW_PASSWORD)).status === 200, { what: 'the new password' });
    // Signed in with the new password, maybe before identity's event reached the gateway: it stays.
    const fresh = sys.client();
    expect((await login(fresh, user.email, NEW_PASSWORD)).status).toBe(200);

    await signedOut(phone, 'the phone session to end');
    await signedOut(laptop, 'the laptop session to end');
    expect(await sessionStored(fresh)).toBe(true);
    expect(await isSignedIn(fresh)).toBe(true);
    expect(await isSignedIn(phone)).toBe(false);
    // The spent link cannot be retried, and does not need to be.
    expect((await sys.client().post('/api/reset-password', { token, newPassword: 'yet another password' })).status).toBe(400);
    expect((await login(sys.client(), user.email, user.password)).status).toBe(401);
  });

  it('a password change that timed out ends the other sessions and keeps the one that made it', async () => {
    const { user, laptop, phone } = await signedInTwice();

    await holdingAccount(user.id, async () => {
      expectTimedOut(
        await laptop.patch('/api/user/profile', {
          currentPassword: user.password,
          newPassword: NEW_PASSWORD,
          confirmPassword: NEW_PASSWORD,
        }),
      );
    });
    await waitFor(async () => (await login(sys.client(), user.email, NEW_PASSWORD)).status === 200, { what: 'the new password' });

    await signedOut(phone, 'the phone session to end');
    expect(await sessionStored(laptop)).toBe(true);
    expect(await isSignedIn(laptop)).toBe(true);
  });

  it('a deletion that timed out still ends every session of the account', async () => {
    const { user, laptop, phone } = await signedInTwice();

    await holdingAccount(user.id, async () => {
      expectTimedOut(await laptop.delete('/api/user/account'));
    });
    await waitFor(async () => (await login(sys.client(), user.email, user.password)).status === 401, { what: 'the deletion' });

    // Checked in Redis: GET /api/user would end a deleted account's session by itself.
    await signedOut(phone, 'the phone session to end');
    await signedOut(laptop, 'the laptop session to end');
  });
});
