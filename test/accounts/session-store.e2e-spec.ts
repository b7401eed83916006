import { setTimeout as sleep } from 'node:timers/promises';
import Redis from 'ioredis';
import { TEST_REDIS_URL } from '@esim/testing';
import { signUp } from '../support/accounts';
import type { HttpClient } from '../support/http-client';
import { AccountsSystem, login, startAccountsSystem } from './accounts-system';

const ABSOLUTE_SECONDS = 4;

/** What the gateway keeps in Redis about sessions, and for how long. */
describe('session store', () => {
  let sys: AccountsSystem;
  let redis: Redis;

  beforeAll(async () => {
    sys = await startAccountsSystem({ gatewayEnv: { SESSION_ABSOLUTE_SECONDS: String(ABSOLUTE_SECONDS) } });
    redis = new Redis(TEST_REDIS_URL, { keyPrefix: `${sys.ns.id}:` });
  });
  afterAll(async () => {
    redis?.disconnect();
    await sys?.stop();
  });

  const sessionId = (client: HttpClient) => /^s:([^.]+)\./.exec(decodeURIComponent(client.cookies.get('sid') ?? ''))?.[1] ?? '';

  it("expires a user's session index with the absolute lifetime, counted again from each sign-in", async () => {
    const user = await signUp(sys.client(), sys.mail);
    const index = `user-sessions:${user.id}`;
    const first = await redis.pttl(index);
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThanOrEqual(ABSOLUTE_SECONDS * 1000);

    await sleep(1500);
    const browser = sys.client();
    expect((await login(browser, user.email, user.password)).status).toBe(200);
    expect(await redis.smembers(index)).toContain(sessionId(browser));
    expect(await redis.pttl(index)).toBeGreaterThan(first - 1000);

    // Past the absolute lifetime of the newest session, the index has nothing left to name.
    await sleep((ABSOLUTE_SECONDS + 1) * 1000);
    expect(await redis.exists(index)).toBe(0);
  });

  it('keeps only who signed in and when in the session, nothing personal', async () => {
    const browser = sys.client();
    const before = Date.now();
    const user = await signUp(browser, sys.mail, { name: 'Private Person' });
    const stored = JSON.parse((await redis.get(`sess:${sessionId(browser)}`)) ?? 'null');
    expect(stored.passport).toEqual({ user: { id: user.id, signedInAt: expect.any(Number) } });
    expect(stored.passport.user.signedInAt).toBeGreaterThanOrEqual(before);
    const raw = JSON.stringify(stored);
    for (const personal of [user.email, user.name, user.password]) expect(raw).not.toContain(personal);
  });
});
