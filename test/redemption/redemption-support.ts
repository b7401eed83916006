import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { SIGNUP_BONUS_POINTS } from '@esim/contracts';
import type { Env } from '@esim/platform';
import { waitFor } from '@esim/testing';
import { UnitOfWork } from '@esim/platform';
import { BalanceAnnouncements } from '../../services/rewards/src/ledger/balance-announcements';
import { Ledger } from '../../services/rewards/src/ledger/ledger';
import { viewSettled } from '../live/live-support';
import { expectLedgerInvariants } from '../../services/rewards/src/testing/ledger-invariants';
import { signUp, SignedUpUser } from '../support/accounts';
import type { HttpClient, HttpResponse } from '../support/http-client';
import { startSystem, System } from '../support/system';

export const DEMO_ICCID = '8900000000000000001';
/** A well-formed ICCID the sandbox provider does not know: it answers 'line not found'. */
export const UNKNOWN_ICCID = '8999000000000000017';
/** Turnstile's always-passing test token, which the sandbox siteverify accepts. */
export const PASSING_CAPTCHA = 'XXXX.DUMMY.TOKEN.XXXX';

/** Quick sweeps and short provider timeouts, so tests of retries and recoveries take seconds. */
export const FAST_PROVISIONING: Env = {
  // The test machine is shared and often loaded: an RPC answer may take longer than in production.
  RPC_TIMEOUT_MS: '20000',
  ESIM_PROVISIONING_POLL_MS: '100',
  ESIM_PROVISIONING_RETRY_MS: '200',
  KEEPGO_RETRY_BACKOFF_MS: '20',
};

export async function startRedemptionSystem(opts: { env?: Env; gatewayEnv?: Env } = {}): Promise<System> {
  return startSystem({
    services: ['identity', 'rewards', 'esim', 'notifications'],
    env: { ...FAST_PROVISIONING, ...opts.env },
    // Long enough for an outcome on a loaded test machine; the crash drills shorten it to see `processing`.
    gatewayEnv: { REDEEM_WAIT_MS: '30000', ...opts.gatewayEnv },
  });
}

export interface Redeemer extends SignedUpUser {
  client: HttpClient;
}

/** A signed-up user whose bonus is in, who solved the (sandbox) captcha. */
export async function signUpRedeemer(sys: System, overrides: Parameters<typeof signUp>[2] = {}): Promise<Redeemer> {
  const client = sys.client();
  const user = await signUp(client, sys.mail, overrides);
  await waitFor(async () => (await client.get('/api/user')).json().points === SIGNUP_BONUS_POINTS, { what: 'the sign-up bonus' });
  const captcha = await client.post('/api/verify-captcha', { token: PASSING_CAPTCHA });
  if (captcha.status !== 200) throw new Error(`captcha failed: ${captcha.status} ${captcha.text}`);
  return { ...user, client };
}

const rewardsDb = (sys: System) => sys.apps.rewards!.get(DataSource);

/**
 * Credits points straight into the user's ledger account, as an offer-wall credit would (the new
 * balance announced with it), and waits until the gateway's user view shows it (unless `settle`
 * is false: a test that holds the gateway's consumers back).
 */
export async function credit(sys: System, userId: string, amount: number, { settle = true } = {}): Promise<void> {
  const ledger = sys.apps.rewards!.get(Ledger);
  const balances = sys.apps.rewards!.get(BalanceAnnouncements);
  await sys.apps.rewards!.get(UnitOfWork).run(async (tx) => {
    await balances.lock(tx.manager, [userId]);
    await ledger.credit(tx.manager, { kind: 'offerwall_credit', from: 'offerwalls', userId, amount, reference: `cpx:test-${randomUUID()}` });
    await balances.announce(tx, [userId]);
  });
  if (settle) await viewSettled(sys);
}

/** Brings the user's balance to exactly `points` (upwards only). */
export async function topUpTo(sys: System, r: Redeemer, points: number): Promise<void> {
  const now = await balance(r.client);
  if (now > points) throw new Error(`balance ${now} is already above ${points}`);
  if (now < points) await credit(sys, r.id, points - now);
  expect(await balance(r.client)).toBe(points);
}

/** The user's available points read straight from the ledger (what every answer is computed from). */
export async function ledgerBalance(sys: System, userId: string): Promise<number> {
  const [row] = await rewardsDb(sys).query('SELECT available FROM ledger_balances WHERE user_id = $1', [userId]);
  return Number(row?.available ?? 0);
}

export async function balance(client: HttpClient): Promise<number> {
  const res = await client.get('/api/user');
  if (res.status !== 200) throw new Error(`GET /api/user: ${res.status} ${res.text}`);
  return res.json().points as number;
}

export const newEsim = (planTier = '1GB', country = 'US') => ({ planTier, purchaseType: 'new', country });
export const topUp = (iccid: string, planTier = '1GB') => ({ planTier, purchaseType: 'existing', iccid });

export function redeem(client: HttpClient, body: unknown, key: string | null = randomUUID()): Promise<HttpResponse> {
  return client.post('/api/redeem-points', body, { headers: key === null ? {} : { 'idempotency-key': key } });
}

export function claimGift(client: HttpClient, body: unknown, key: string | null = randomUUID()): Promise<HttpResponse> {
  return client.post('/api/gift-data', body, { headers: key === null ? {} : { 'idempotency-key': key } });
}

/** Rewards' ledger rules and sums, checked independently of the code under test. */
export async function expectLedgerSound(sys: System): Promise<void> {
  await expectLedgerInvariants(rewardsDb(sys));
}

/** The ledger transfers that reference one redemption (its reservation and the settlement of it). */
export async function transfersOf(sys: System, redemptionId: string): Promise<Array<{ kind: string; amount: number }>> {
  const rows: Array<{ kind: string; amount: string }> = await rewardsDb(sys).query(
    `SELECT t.kind, t.amount FROM ledger_transfers t
      WHERE t.reference = $1 OR t.linked_id IN (SELECT id FROM ledger_transfers WHERE kind = 'reservation' AND reference = $1)
      ORDER BY t.seq`,
    [redemptionId],
  );
  return rows.map((r) => ({ kind: r.kind, amount: Number(r.amount) }));
}

export async function redemptionRow(sys: System, redemptionId: string): Promise<{ status: string } | undefined> {
  const [row] = await rewardsDb(sys).query('SELECT status FROM redemptions WHERE id = $1', [redemptionId]);
  return row;
}
