import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { AcceptedPostback, OfferwallPostbacksAccepted, SIGNUP_BONUS_POINTS, UserRegistered } from '@esim/contracts';
import { TEST_DATABASE_URL, waitFor } from '@esim/testing';
import { RewardsUnderTest, startRewardsUnderTest } from '../../services/rewards/src/testing/rewards-harness';
import { expectLedgerInvariants } from '../../services/rewards/src/testing/ledger-invariants';
import { RewardsProcess } from './rewards-process';

const FRIENDS = 6;
const BONUS = 200;
const HOLD = { CREDIT_HOLD_MIN_POINTS: '500', CREDIT_HOLD_SECONDS: '4', REFERRAL_BONUS_POINTS: String(BONUS) };

/**
 * The referral bonus across crashes (docs/earning.md, "Referrals"): each friend's first 1000 points
 * are held, then released by two rewards replicas, each a process of its own. One is SIGKILLed the
 * moment the first release commits (its ReferralQualified is in the outbox, not yet published,
 * consumed or acknowledged), the other the moment the first bonus commits (before the broker has
 * its acknowledgement). After restarts every friend and the inviter are paid exactly once per
 * friend. No timing is asserted.
 */
describe('referral bonuses with two replicas, killed between the release and the payout', () => {
  let rewards: RewardsUnderTest;
  let db: Client;
  const replicas: RewardsProcess[] = [];

  beforeAll(async () => {
    // The in-process service owns the namespace and registers the users; its own release job only
    // runs at start, before anything is due.
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
      rewards.ns.env('rewards', {
        WEBHOOKS_DB_SCHEMA: rewards.ns.schema('webhooks'),
        ...HOLD,
        CREDIT_RELEASE_INTERVAL_MS: '100',
      }) as NodeJS.ProcessEnv,
    );
  const count = async (sql: string, params: unknown[] = []) => (await db.query<{ n: number }>(sql, params)).rows[0].n;
  /** Kills the replica at once, whatever it is doing, and starts another in its place. */
  const killAndRestart = async (victim: RewardsProcess) => {
    await victim.kill();
    replicas.splice(replicas.indexOf(victim), 1);
    replicas.push(await replica());
  };

  it('pays each friend and the inviter once per friend, whatever the kills interrupted', async () => {
    const inviter = await rewards.registerUser();
    const friends: string[] = [];
    for (let i = 0; i < FRIENDS; i++) {
      const userId = randomUUID();
      await rewards.publish(UserRegistered, {
        userId,
        email: `${userId}@example.test`,
        name: 'Friend',
        locale: 'en',
        registeredAt: new Date().toISOString(),
        referral: { inviterId: inviter, voidReason: null },
      });
      friends.push(userId);
    }
    await waitFor(async () => (await count(`SELECT count(*)::int AS n FROM referrals WHERE status = 'pending'`)) === FRIENDS, {
      what: 'the referrals recorded',
    });
    // Two held credits of 600 each: the friend qualifies when the second is released.
    const postbacks: AcceptedPostback[] = friends.flatMap((userId) =>
      [600, 600].map((points) => {
        const transactionId = `ref-${randomUUID()}`;
        return {
          deliveryId: randomUUID(),
          provider: 'cpx' as const,
          action: 'credit' as const,
          transactionId,
          creditTransactionId: transactionId,
          userId,
          points,
          taskType: 'offer_completion' as const,
        };
      }),
    );
    await rewards.applied(await rewards.publish(OfferwallPostbacksAccepted, { postbacks, acceptedAt: new Date().toISOString() }));
    expect(await count('SELECT count(*)::int AS n FROM ledger_holds')).toBe(FRIENDS * 2);
    expect(await count(`SELECT count(*)::int AS n FROM ledger_transfers WHERE kind = 'referral_bonus'`)).toBe(0);

    const [a, b] = await Promise.all([replica(), replica()]);
    replicas.push(a, b);
    await waitFor(async () => (await count(`SELECT count(*)::int AS n FROM ledger_transfers WHERE kind = 'hold_release'`)) > 0, {
      timeoutMs: 30_000,
      intervalMs: 2,
      what: 'the first release',
    });
    await killAndRestart(a);
    await waitFor(async () => (await count(`SELECT count(*)::int AS n FROM ledger_transfers WHERE kind = 'referral_bonus'`)) > 0, {
      timeoutMs: 60_000,
      intervalMs: 2,
      what: 'the first bonus',
    });
    await killAndRestart(b);

    await waitFor(async () => (await count(`SELECT count(*)::int AS n FROM referrals WHERE status = 'paid'`)) === FRIENDS, {
      timeoutMs: 60_000,
      what: 'every referral paid',
    });
    const bonuses = await db.query<{ reference: string; n: number; amount: string }>(
      `SELECT reference, count(*)::int AS n, sum(amount)::text AS amount FROM ledger_transfers WHERE kind = 'referral_bonus' GROUP BY reference ORDER BY reference`,
    );
    expect(bonuses.rows).toEqual(
      friends
        .flatMap((f) => [`${f}:friend`, `${f}:inviter`])
        .sort()
        .map((reference) => ({ reference, n: 1, amount: String(BONUS) })),
    );
    expect(await rewards.points(inviter)).toBe(SIGNUP_BONUS_POINTS + FRIENDS * BONUS);
    for (const f of friends) expect(await rewards.points(f)).toBe(SIGNUP_BONUS_POINTS + 1200 + BONUS);
  }, 180_000);
});
