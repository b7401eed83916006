import { randomUUID } from 'node:crypto';
import { SIGNUP_BONUS_POINTS } from '@esim/contracts';
import { waitFor } from '@esim/testing';
import { credit } from '../redemption/redemption-support';
import { signUp, SignedUpUser } from '../support/accounts';
import type { HttpClient } from '../support/http-client';
import { startSystem, System } from '../support/system';

type Referrals = { code: string; link: string; bonusPoints: number; invited: Array<{ name: string | null; status: string; voidReason: string | null; pointsForYou: number }> };

/**
 * Referrals through the gateway, identity and rewards (docs/earning.md, "Referrals"): the code and
 * link, a friend signed up with it, the device signal that voids a referral linked to the inviter
 * (the device the inviter signed up or signed in from), the friend's name as their privacy allows,
 * and both bonuses once the friend's first 1000 points are spendable.
 */
describe('referrals over HTTP', () => {
  let sys: System;
  let inviter: SignedUpUser & { client: HttpClient };
  const inviterDevice = randomUUID();
  const signInDevice = randomUUID();

  const withClient = async (o: Parameters<typeof signUp>[2]) => {
    const client = sys.client();
    return { ...(await signUp(client, sys.mail, o)), client };
  };
  const referrals = async (): Promise<Referrals> => (await inviter.client.get('/api/referrals')).json();
  const points = async (u: { client: HttpClient }) => (await u.client.get('/api/user')).json().points as number;

  beforeAll(async () => {
    sys = await startSystem({ env: { REFERRAL_BONUS_POINTS: '200' } });
    inviter = await withClient({ name: 'Iris Inviter', deviceId: inviterDevice });
    // Iris also signs in from a second device: a device used at sign-in links too.
    const other = sys.client();
    expect((await other.post('/api/login', { username: inviter.email, password: inviter.password }, { headers: { 'x-device-id': signInDevice } })).status).toBe(200);
  }, 120_000);
  afterAll(() => sys?.stop());

  it('gives each user a code and a link that opens sign-up with it', async () => {
    const r = await referrals();
    expect(r.code).toMatch(/^[A-HJKMNP-Z2-9]{8}$/);
    expect(new URL(r.link).pathname).toBe('/auth');
    expect(Object.fromEntries(new URL(r.link).searchParams)).toEqual({ signup: 'true', ref: r.code });
    expect(r).toMatchObject({ bonusPoints: 200, invited: [] });
  });

  it('voids a referral from a device the inviter uses and says so; counts one from another device; never shows an email', async () => {
    const { code } = await referrals();
    await withClient({ name: 'Bea Samedevice', referralCode: code, deviceId: inviterDevice });
    await withClient({ name: 'Cid Signindevice', referralCode: code.toLowerCase(), deviceId: signInDevice });
    const dora = await withClient({ name: 'dora@example.test', referralCode: code, deviceId: randomUUID() });
    await waitFor(async () => (await referrals()).invited.length === 3, { what: 'three referrals recorded' });
    const { invited } = await referrals();
    expect(invited).toEqual([
      { name: 'dora', status: 'pending', voidReason: null, pointsForYou: 0 },
      { name: 'Cid', status: 'void', voidReason: 'same_device', pointsForYou: 0 },
      { name: 'Bea', status: 'void', voidReason: 'same_device', pointsForYou: 0 },
    ]);
    expect(JSON.stringify(invited)).not.toContain('@');

    // A friend with a private profile is listed without a name.
    expect((await dora.client.patch('/api/user/settings', { privateProfile: true })).status).toBe(200);
    expect((await referrals()).invited[0]).toMatchObject({ name: null, status: 'pending' });
  });

  it('pays both bonuses once the friend’s first 1000 points are spendable; a void referral pays nothing', async () => {
    const { code } = await referrals();
    const eli = await withClient({ name: 'Eli Earner', referralCode: code, deviceId: randomUUID() });
    const bea = await withClient({ name: 'Bea Again', referralCode: code, deviceId: inviterDevice });
    await waitFor(async () => (await points(eli)) === SIGNUP_BONUS_POINTS, { what: "Eli's bonus" });
    const before = await points(inviter);
    await credit(sys, eli.id, 600);
    await credit(sys, bea.id, 1200);
    expect((await referrals()).invited.find((i) => i.name === 'Eli')).toMatchObject({ status: 'pending' });
    await credit(sys, eli.id, 400);
    await waitFor(async () => (await referrals()).invited.find((i) => i.name === 'Eli')?.status === 'paid', { what: "Eli's referral paid" });
    await waitFor(async () => (await points(inviter)) === before + 200 && (await points(eli)) === SIGNUP_BONUS_POINTS + 1000 + 200, { what: 'both bonuses' });
    expect((await referrals()).invited.find((i) => i.name === 'Eli')).toMatchObject({ pointsForYou: 200 });
    expect((await referrals()).invited.find((i) => i.name === 'Bea' && i.voidReason)).toMatchObject({ status: 'void', pointsForYou: 0 });
    for (const u of [inviter, eli]) {
      const { entries } = (await u.client.get('/api/points-statement')).json() as { entries: Array<{ kind: string; points: number }> };
      expect(entries.filter((e) => e.kind === 'referral_bonus')).toEqual([expect.objectContaining({ points: 200 })]);
    }
  });

  it('signs up with an unknown code as without one, and refuses a malformed code with a clear 400', async () => {
    const ok = await withClient({ name: 'Fay Unknown', referralCode: 'ZZZZ2222', deviceId: randomUUID() });
    expect(ok.id).toBeDefined();
    const client = sys.client();
    const bad = await client.post('/api/verify-email', { email: 'x@example.test', code: '123456', password: 'correct horse battery', name: 'X', referralCode: 'not a code!' });
    expect(bad.status).toBe(400);
  });
});
