import { randomUUID } from 'node:crypto';
import { AcceptedPostback, OfferwallPostbacksAccepted, SIGNUP_BONUS_POINTS, UserRegistered } from '@esim/contracts';
import { waitFor } from '@esim/testing';
import { RewardsReplicas, startRewardsReplicas } from './rewards-replicas';

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
  let drill: RewardsReplicas;

  beforeAll(async () => {
    drill = await startRewardsReplicas(HOLD);
  }, 60_000);
  afterAll(() => drill?.stop());

  it('pays each friend and the inviter once per friend, whatever the kills interrupted', async () => {
    const { rewards, db, count } = drill;
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

    const [a, b] = await Promise.all([drill.start(), drill.start()]);
    await waitFor(async () => (await count(`SELECT count(*)::int AS n FROM ledger_transfers WHERE kind = 'hold_release'`)) > 0, {
      timeoutMs: 30_000,
      intervalMs: 2,
      what: 'the first release',
    });
    await drill.killAndRestart(a);
    await waitFor(async () => (await count(`SELECT count(*)::int AS n FROM ledger_transfers WHERE kind = 'referral_bonus'`)) > 0, {
      timeoutMs: 60_000,
      intervalMs: 2,
      what: 'the first bonus',
    });
    await drill.killAndRestart(b);

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
