import { randomUUID } from 'node:crypto';
import { BalanceChanged, EventPayload, RewardsRpc, SIGNUP_BONUS_POINTS } from '@esim/contracts';
import { UnitOfWork } from '@esim/platform';
import { asUser } from '@esim/testing';
import { RewardsUnderTest, startRewardsUnderTest } from '../testing/rewards-harness';
import { BalanceAnnouncements } from './balance-announcements';
import { Ledger } from './ledger';

type Announced = EventPayload<typeof BalanceChanged>;

/**
 * BalanceChanged's version must order balances: whatever the concurrency, a higher version is a
 * later balance. Credits of distinct powers of two make each balance name exactly the credits it
 * contains, so "later" can be checked: the credits of a lower version are a subset of those of a
 * higher one, and equal versions hold equal balances.
 */
describe('balance announcements', () => {
  let rewards: RewardsUnderTest;
  beforeAll(async () => {
    rewards = await startRewardsUnderTest();
  });
  afterAll(() => rewards?.stop());

  const announced = async (userId: string): Promise<Announced[]> =>
    (await rewards.db.query('SELECT envelope FROM outbox_events WHERE routing_key = $1', [BalanceChanged.routingKey]))
      .map((r: { envelope: { payload: Announced } }) => r.envelope.payload)
      .filter((p: Announced) => p.userId === userId);

  it('announces the sign-up bonus with the balance and the entry count', async () => {
    const userId = await rewards.registerUser();
    expect(await announced(userId)).toEqual([
      { userId, points: SIGNUP_BONUS_POINTS, version: 1, changedAt: expect.any(String), pendingPoints: 0, pendingReleases: [] },
    ]);
    expect(await asUser(userId, () => rewards.rpc.call(RewardsRpc.getVersionedBalance, {}))).toEqual({
      userId,
      points: SIGNUP_BONUS_POINTS,
      version: 1,
      pendingPoints: 0,
      pendingReleases: [],
    });
  });

  it('orders concurrent changes of one account: a higher version always holds every earlier change', async () => {
    const userId = await rewards.registerUser();
    const ledger = rewards.app.get(Ledger);
    const balances = rewards.app.get(BalanceAnnouncements);
    const uow = rewards.app.get(UnitOfWork);
    // 20 transactions at once, each crediting a distinct power of two, each announcing.
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        uow.run(async (tx) => {
          await balances.lock(tx.manager, [userId]);
          await ledger.credit(tx.manager, { kind: 'offerwall_credit', from: 'offerwalls', userId, amount: 2 ** (i + 7), reference: `cpx:${randomUUID()}` });
          await balances.announce(tx, [userId]);
        }),
      ),
    );
    const events = (await announced(userId)).sort((a, b) => a.version - b.version);
    expect(events).toHaveLength(21);
    expect(new Set(events.map((e) => e.version)).size).toBe(21);
    const credits = (points: number) => BigInt(points - SIGNUP_BONUS_POINTS);
    for (let i = 1; i < events.length; i++) {
      const earlier = credits(events[i - 1].points);
      const later = credits(events[i].points);
      expect((earlier & later) === earlier && later !== earlier).toBe(true);
    }
    const last = events.at(-1)!;
    expect(await asUser(userId, () => rewards.rpc.call(RewardsRpc.getVersionedBalance, {}))).toEqual({
      userId,
      points: last.points,
      version: last.version,
      pendingPoints: 0,
      pendingReleases: [],
    });
    expect(last.points).toBe(SIGNUP_BONUS_POINTS + (2 ** 27 - 2 ** 7));
  });
});
