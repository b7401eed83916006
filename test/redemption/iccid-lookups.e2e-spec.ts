import { DataSource } from 'typeorm';
import { CAPTCHA_REQUIRED_MESSAGE } from '@esim/contracts';
import type { System } from '../support/system';
import {
  balance,
  expectLedgerSound,
  newEsim,
  PASSING_CAPTCHA,
  redeem,
  Redeemer,
  signUpRedeemer,
  startRedemptionSystem,
  topUp,
  topUpTo,
  UNKNOWN_ICCID,
} from './redemption-support';

/** Well-formed ICCIDs the sandbox provider does not know, as a prober walking a batch would try them. */
const guesses = Array.from({ length: 8 }, (_, i) => `899900000000000${String(100 + i).padStart(4, '0')}`);

/**
 * Guessing ICCIDs must cost something (docs/redemption.md, "ICCID lookups"): a refused top-up gives
 * the points back, so each refused one spends the session's captcha mark, and top-ups are counted
 * per account (RATE_LIMIT_ICCID_USER) and per client network (RATE_LIMIT_ICCID_IP).
 */
describe('ICCID lookups', () => {
  let sys: System;
  let pat: Redeemer;
  let sam: Redeemer;

  beforeAll(async () => {
    sys = await startRedemptionSystem({ gatewayEnv: { RATE_LIMIT_ICCID_USER: '3/3600', RATE_LIMIT_ICCID_IP: '5/3600' } });
    [pat, sam] = await Promise.all([signUpRedeemer(sys, { name: 'Pat' }), signUpRedeemer(sys, { name: 'Sam' })]);
    await Promise.all([topUpTo(sys, pat, 2000), topUpTo(sys, sam, 1000)]);
  });
  afterEach(() => expectLedgerSound(sys));
  afterAll(() => sys?.stop());

  const solveCaptcha = async (r: Redeemer) => expect((await r.client.post('/api/verify-captcha', { token: PASSING_CAPTCHA })).status).toBe(200);
  const reservations = async (userId: string): Promise<number> => {
    const [{ n }] = await sys.apps.rewards!.get(DataSource).query('SELECT count(*)::int AS n FROM redemptions WHERE user_id = $1', [userId]);
    return n;
  };

  it('a refused top-up spends the captcha mark: the next guess is a 403 until a new captcha, and reserves nothing', async () => {
    const refused = await redeem(pat.client, topUp(UNKNOWN_ICCID));
    expect(refused.status).toBe(422);
    expect(refused.json().reason).toBe('provider_refused');
    expect(await balance(pat.client)).toBe(2000);
    const tried = await reservations(pat.id);

    const again = await redeem(pat.client, topUp(guesses[0]));
    expect(again.status).toBe(403);
    expect(again.json()).toMatchObject({ reason: 'captcha_required', message: CAPTCHA_REQUIRED_MESSAGE });
    expect(await reservations(pat.id)).toBe(tried);

    await solveCaptcha(pat);
    expect((await redeem(pat.client, topUp(guesses[1]))).status).toBe(422);
    expect((await redeem(pat.client, topUp(guesses[2]))).status).toBe(403);
  });

  it("counts each account's lookups: past the limit a 429 with Retry-After, nothing reserved; a new eSIM is no lookup", async () => {
    await solveCaptcha(pat);
    expect((await redeem(pat.client, topUp(guesses[3]))).status).toBe(422);
    await solveCaptcha(pat);
    const tried = await reservations(pat.id);
    const limited = await redeem(pat.client, topUp(guesses[4]));
    expect(limited.status).toBe(429);
    expect(limited.json()).toMatchObject({ code: 'rate_limited', message: 'Too many attempts. Please try again later.' });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await reservations(pat.id)).toBe(tried);
    expect(await balance(pat.client)).toBe(2000);

    // A lookup refused by the limit asked no provider and spent no captcha mark; a new eSIM asks about no ICCID.
    const esim = await redeem(pat.client, newEsim('1GB', 'US'));
    expect(esim.status).toBe(200);
    expect(esim.json().status).toBe('esim_activation_ready');
  });

  it("counts the client network's lookups whichever account makes them", async () => {
    // Pat's four lookups came from this address; Sam's first is the fifth, the sixth is refused.
    expect((await redeem(sam.client, topUp(guesses[5]))).status).toBe(422);
    await solveCaptcha(sam);
    const limited = await redeem(sam.client, topUp(guesses[6]));
    expect(limited.status).toBe(429);
    expect(await balance(sam.client)).toBe(1000);
  });
});
