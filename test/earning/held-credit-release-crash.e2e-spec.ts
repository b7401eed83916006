import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { AcceptedPostback, BalanceChanged, EventPayload, OfferwallPostbacksAccepted, RewardsRpc, SIGNUP_BONUS_POINTS } from '@esim/contracts';
import { asUser, TEST_DATABASE_URL, waitFor } from '@esim/testing';
import { RewardsUnderTest, startRewardsUnderTest } from '../../services/rewards/src/testing/rewards-harness';
import { expectLedgerInvariants } from '../../services/rewards/src/testing/ledger-invariants';
import { RewardsProcess } from './rewards-process';

const USERS = 3;
const CREDITS_PER_USER = 20;
const POINTS = 600;
const HOLD = { CREDIT_HOLD_MIN_POINTS: '500', CREDIT_HOLD_SECONDS: '4' };

/**
 * Releases of held credits with two rewards replicas, each a process of its own, one of which is
 * killed outright (SIGKILL) the moment the first release is committed: before its BalanceChanged
 * was published and acknowledged by the broker, or while it was still releasing. After that every
 * held credit is released exactly once, nothing is left held, and the newest BalanceChanged in the
 * outbox (written with each release) is the released balance. No timing is asserted.
 */
describe('held credits released by two replicas, one killed mid-release', () => {
  let rewards: RewardsUnderTest;
  let db: Client;
  const replicas: RewardsProcess[] = [];

  beforeAll(async () => {
    // The in-process service owns the namespace (schema, queues) and registers the users; its own
    // release job only runs at start, before anything is due.
    rewards = await startRewardsUnderTest({ ...HOLD, CREDIT_RELEASE_INTERVAL_MS: String(3600_000) });
    db = new Client({ connectionString: TEST_DATABASE_URL, options: `-c search_path=${rewards.ns.schema('rewards')}` });
    await db.connect();
  }, 60_000);
  afterAll(async () => {
    for (const r of replicas) await r.kill().catch(() => undefined);
    await db?.end();
    if (rewards) {
      await expectLedgerInvariants(rewards.db);
      await rewards.stop();
    }
  });

  const replica = () =>
    RewardsProcess.start(
      rewards.ns.env('rewards', { ...HOLD, CREDIT_RELEASE_INTERVAL_MS: '100' }) as NodeJS.ProcessEnv,
    );
  const count = async (sql: string, params: unknown[] = []) => (await db.query<{ n: number }>(sql, params)).rows[0].n;

  it('releases each held credit exactly once, whatever the kill interrupted', async () => {
    const users: string[] = [];
    for (let i = 0; i < USERS; i++) users.push(await rewards.registerUser());
    const postbacks: AcceptedPostback[] = users.flatMap((userId) =>
      Array.from({ length: CREDITS_PER_USER }, () => {
        const transactionId = `held-${randomUUID()}`;
        return { deliveryId: randomUUID(), provider: 'cpx' as const, action: 'credit' as const, transactionId, creditTransactionId: transactionId, userId, points: POINTS, taskType: 'offer_completion' as const };
      }),
    );
    await rewards.applied(await rewards.publish(OfferwallPostbacksAccepted, { postbacks, acceptedAt: new Date().toISOString() }));
    expect(await count('SELECT count(*)::int AS n FROM ledger_holds')).toBe(USERS * CREDITS_PER_USER);
    for (const userId of users)
      expect(await asUser(userId, () => rewards.rpc.call(RewardsRpc.getVersionedBalance, {}))).toMatchObject({
        points: SIGNUP_BONUS_POINTS,
        pendingPoints: CREDITS_PER_USER * POINTS,
      });

    const [a, b] = await Promise.all([replica(), replica()]);
    replicas.push(a, b);
    // The first release committed (by either replica): A dies at once, whatever it was doing.
    await waitFor(async () => (await count(`SELECT count(*)::int AS n FROM ledger_transfers WHERE kind = 'hold_release'`)) > 0, {
      timeoutMs: 30_000,
      intervalMs: 2,
      what: 'the first release',
    });
    await a.kill();
    replicas.splice(replicas.indexOf(a), 1);
    // Two replicas again: A restarted next to B.
    replicas.push(await replica());

    await waitFor(async () => (await count('SELECT count(*)::int AS n FROM ledger_holds')) === 0, { timeoutMs: 30_000, what: 'every held credit released' });
    const releases = await db.query<{ reference: string; n: number }>(
      `SELECT c.reference, count(r.id)::int AS n FROM ledger_transfers c LEFT JOIN ledger_transfers r ON r.kind = 'hold_release' AND r.reference = c.id::text
        WHERE c.kind = 'offerwall_credit' AND c.held_until IS NOT NULL GROUP BY c.reference`,
    );
    expect(releases.rows).toHaveLength(USERS * CREDITS_PER_USER);
    expect(releases.rows.filter((r) => r.n !== 1)).toEqual([]);

    const released = SIGNUP_BONUS_POINTS + CREDITS_PER_USER * POINTS;
    for (const userId of users) {
      const balance = await asUser(userId, () => rewards.rpc.call(RewardsRpc.getVersionedBalance, {}));
      expect(balance).toMatchObject({ userId, points: released, pendingPoints: 0, pendingReleases: [] });
      // The user view is told, in the transaction that released (the outbox: no gateway consumes it in this namespace):
      // the newest BalanceChanged is the released balance.
      const newest = await db.query<{ payload: EventPayload<typeof BalanceChanged> }>(
        `SELECT envelope->'payload' AS payload FROM outbox_events WHERE routing_key = $1 AND envelope->'payload'->>'userId' = $2
          ORDER BY (envelope->'payload'->>'version')::int DESC LIMIT 1`,
        [BalanceChanged.routingKey, userId],
      );
      expect(newest.rows[0].payload).toMatchObject({ points: released, pendingPoints: 0, pendingReleases: [], version: balance.version });
    }
  }, 120_000);
});
