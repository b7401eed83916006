import { randomUUID } from 'node:crypto';
import {
  AcceptedPostback,
  BalanceChanged,
  OfferwallPostbacksAccepted,
  RedemptionRpc,
  RewardsRpc,
  SIGNUP_BONUS_POINTS,
  TaskReversed,
} from '@esim/contracts';
import { UnitOfWork } from '@esim/platform';
import { asUser, waitFor } from '@esim/testing';
import { BalanceAnnouncements } from '../ledger/balance-announcements';
import { Ledger } from '../ledger/ledger';
import { AcceptedPostbacks } from '../testing/accepted-postbacks';
import { expectLedgerInvariants } from '../testing/ledger-invariants';
import { RewardsUnderTest, startRewardsUnderTest } from '../testing/rewards-harness';

/**
 * Held credits on the real rewards service, broker and Postgres: credits of 500 points or more
 * wait an hour (BitLabs' two seconds, Torox's never), smaller ones are spendable at once.
 */
describe('held credits', () => {
  let rewards: RewardsUnderTest;

  beforeAll(async () => {
    rewards = await startRewardsUnderTest({
      CREDIT_HOLD_MIN_POINTS: '500',
      CREDIT_HOLD_SECONDS: '3600',
      BITLABS_HOLD_SECONDS: '2',
      TOROX_HOLD_SECONDS: '0',
      CREDIT_RELEASE_INTERVAL_MS: '200',
    });
  });
  afterAll(async () => {
    await expectLedgerInvariants(rewards.db);
    await rewards.stop();
  });
  afterEach(() => expectLedgerInvariants(rewards.db));

  const accepted = AcceptedPostbacks.credit;
  const deliver = async (...postbacks: AcceptedPostback[]) => {
    const envelope = await rewards.publish(OfferwallPostbacksAccepted, { postbacks, acceptedAt: new Date().toISOString() });
    await rewards.applied(envelope);
  };
  const { reversalOf } = AcceptedPostbacks;
  const balance = (userId: string) => asUser(userId, () => rewards.rpc.call(RewardsRpc.getVersionedBalance, {}));
  const statement = async (userId: string) => (await asUser(userId, () => rewards.rpc.call(RedemptionRpc.getPointsStatement, {}))).entries;
  const releasesOf = async (provider: string, transactionId: string): Promise<number> =>
    (
      await rewards.db.query(
        `SELECT count(*)::int AS n FROM ledger_transfers r JOIN ledger_transfers c ON c.id::text = r.reference
          WHERE r.kind = 'hold_release' AND c.reference = $1`,
        [`${provider}:${transactionId}`],
      )
    )[0].n;

  it('holds a credit at or above the threshold, keeps smaller ones and the sign-up bonus spendable, and says when it is released', async () => {
    const userId = await rewards.registerUser();
    const big = accepted(userId, { points: 800 });
    const small = accepted(userId, { points: 499 });
    const never = accepted(userId, { provider: 'torox', points: 900 });
    const before = Date.now();
    await deliver(big, small, never);

    const b = await balance(userId);
    expect(b).toMatchObject({ points: SIGNUP_BONUS_POINTS + 499 + 900, pendingPoints: 800 });
    expect(b.pendingReleases).toEqual([{ points: 800, availableAt: expect.any(String) }]);
    const at = Date.parse(b.pendingReleases[0].availableAt);
    expect(at).toBeGreaterThanOrEqual(before + 3600_000 - 1000);
    expect(at).toBeLessThanOrEqual(Date.now() + 3600_000 + 1000);

    // The live view is told the same, in the transaction that credited.
    const [announced] = (
      await rewards.db.query(`SELECT envelope FROM outbox_events WHERE routing_key = $1 AND envelope->'payload'->>'userId' = $2 ORDER BY seq DESC LIMIT 1`, [
        BalanceChanged.routingKey,
        userId,
      ])
    ).map((r: { envelope: { payload: unknown } }) => r.envelope.payload);
    expect(announced).toMatchObject({ points: b.points, pendingPoints: 800, pendingReleases: b.pendingReleases, version: b.version });

    const earned = (await statement(userId)).find((e) => e.transactionId === big.transactionId)!;
    expect(earned).toMatchObject({ kind: 'earned', points: 0, amount: 800, state: 'pending', availableAt: b.pendingReleases[0].availableAt });
    // What the entries add up to is what can be spent.
    expect((await statement(userId)).reduce((sum, e) => sum + e.points, 0)).toBe(b.points);
  });

  it('ten concurrent redemptions cannot spend held points: only the spendable 1000 pay for one', async () => {
    const userId = await rewards.registerUser();
    // 1000 spendable (bonus + 450 + 450), 2000 held.
    await deliver(
      accepted(userId, { points: 450 }),
      accepted(userId, { points: 450 }),
      accepted(userId, { points: 1000 }),
      accepted(userId, { points: 1000 }),
    );
    expect(await balance(userId)).toMatchObject({ points: 1000, pendingPoints: 2000 });

    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        asUser(userId, () =>
          rewards.rpc.call(RedemptionRpc.redeemPoints, {
            idempotencyKey: `held-race-${i}-${randomUUID()}`,
            request: { planTier: '1GB', purchaseType: 'new', country: 'BR' },
          }),
        ),
      ),
    );
    const refused = results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason as { reason?: string });
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(refused).toHaveLength(9);
    for (const r of refused) expect(r).toMatchObject({ reason: 'insufficient_points' });
    expect(await balance(userId)).toMatchObject({ points: 0, pendingPoints: 2000 });
    const [{ n }] = await rewards.db.query(`SELECT count(*)::int AS n FROM redemptions WHERE user_id = $1`, [userId]);
    expect(n).toBe(1);
  });

  it('a reversal of a held credit cancels it and leaves no debt, with the wall, offer and reason in the history', async () => {
    const userId = await rewards.registerUser();
    const held = accepted(userId, { points: 700, offerName: 'Casino Royale level 20' });
    await deliver(held);
    expect(await balance(userId)).toMatchObject({ points: SIGNUP_BONUS_POINTS, pendingPoints: 700 });

    await deliver(reversalOf(held, { reversalReason: 'Fraudulent conversion' }));
    const after = await balance(userId);
    expect(after).toMatchObject({ points: SIGNUP_BONUS_POINTS, pendingPoints: 0, pendingReleases: [] });

    const entries = await statement(userId);
    expect(entries.find((e) => e.kind === 'reversed')).toMatchObject({
      provider: 'cpx',
      transactionId: held.transactionId,
      offerName: 'Casino Royale level 20',
      reason: 'Fraudulent conversion',
      points: 0,
      amount: 700,
      cancelledHeld: true,
    });
    expect(entries.find((e) => e.kind === 'earned')).toMatchObject({ state: 'reversed', points: 0 });
    expect(entries.reduce((sum, e) => sum + e.points, 0)).toBe(after.points);
    const [reversed] = (
      await rewards.db.query(`SELECT envelope FROM outbox_events WHERE routing_key = $1 AND envelope->'payload'->>'userId' = $2`, [TaskReversed.routingKey, userId])
    ).map((r: { envelope: { payload: unknown } }) => r.envelope.payload);
    expect(reversed).toMatchObject({ points: 700, provider: 'cpx' });
    // Nothing is left to release.
    const [{ n }] = await rewards.db.query(`SELECT count(*)::int AS n FROM ledger_holds h JOIN ledger_accounts a ON a.id = h.account_id WHERE a.user_id = $1`, [userId]);
    expect(n).toBe(0);
  });

  it('a reversal of a spendable credit takes its points back as before', async () => {
    const userId = await rewards.registerUser();
    const small = accepted(userId, { points: 400 });
    await deliver(small);
    await deliver(reversalOf(small));
    expect(await balance(userId)).toMatchObject({ points: SIGNUP_BONUS_POINTS, pendingPoints: 0 });
    expect((await statement(userId)).find((e) => e.kind === 'reversed')).toMatchObject({ points: -400, cancelledHeld: false, reason: null });
  });

  it('releases a held credit by itself once it is due, once, and a reversal afterwards takes spendable points back', async () => {
    const userId = await rewards.registerUser();
    const held = accepted(userId, { provider: 'bitlabs', points: 600 });
    await deliver(held);
    expect(await balance(userId)).toMatchObject({ points: SIGNUP_BONUS_POINTS, pendingPoints: 600 });

    await waitFor(async () => (await balance(userId)).pendingPoints === 0, { timeoutMs: 15_000, what: 'the held credit released' });
    expect(await balance(userId)).toMatchObject({ points: SIGNUP_BONUS_POINTS + 600, pendingReleases: [] });
    expect(await releasesOf('bitlabs', held.transactionId)).toBe(1);
    const entries = await statement(userId);
    expect(entries.find((e) => e.kind === 'available')).toMatchObject({ points: 600, provider: 'bitlabs', transactionId: held.transactionId });
    expect(entries.find((e) => e.kind === 'earned')).toMatchObject({ points: 0, state: 'done' });
    expect(entries.reduce((sum, e) => sum + e.points, 0)).toBe(SIGNUP_BONUS_POINTS + 600);

    // Released, it is spendable points: a reversal now takes them back (and may leave a debt).
    await deliver(reversalOf(held));
    expect(await balance(userId)).toMatchObject({ points: SIGNUP_BONUS_POINTS, pendingPoints: 0 });
    expect(await releasesOf('bitlabs', held.transactionId)).toBe(1);
  });

  it('a reversal racing the release of the same due credit: one order or the other, never a debt or a double effect', async () => {
    const userId = await rewards.registerUser();
    const ledger = rewards.app.get(Ledger);
    const balances = rewards.app.get(BalanceAnnouncements);
    const uow = rewards.app.get(UnitOfWork);
    const [{ id: accountId }] = await rewards.db.query('SELECT id FROM ledger_accounts WHERE user_id = $1', [userId]);
    for (let i = 0; i < 15; i++) {
      // Due already: the release job may take it too, a third party to the race.
      const [{ transfer: credit }] = await uow.run((tx) =>
        ledger.creditMany(tx.manager, 'offerwall_credit', 'offerwalls', [{ accountId, amount: 700, reference: `cpx:race-${randomUUID()}`, heldUntil: new Date(Date.now() - 1000) }]),
      );
      await Promise.all([
        uow.run(async (tx) => {
          await balances.lock(tx.manager, [userId]);
          await ledger.releaseDue(tx.manager, [accountId], 10);
        }),
        uow.run(async (tx) => {
          await balances.lock(tx.manager, [userId]);
          await ledger.reverseCredit(tx.manager, credit);
        }),
      ]);
      const [{ released, held_layer }] = await rewards.db.query(
        `SELECT (SELECT count(*)::int FROM ledger_transfers WHERE kind = 'hold_release' AND reference = $1::text) AS released,
                EXISTS (SELECT 1 FROM ledger_entries e JOIN ledger_transfers r ON r.id = e.transfer_id WHERE r.linked_id = $1::uuid AND e.layer = 'held') AS held_layer`,
        [credit.id],
      );
      // Released first: the reversal took spendable points back; reversed first: it cancelled the held ones and nothing was released.
      expect({ released, held_layer }).toEqual(released === 1 ? { released: 1, held_layer: false } : { released: 0, held_layer: true });
      expect(await rewards.app.get(Ledger).balance(rewards.db.manager, userId)).toMatchObject({ available: SIGNUP_BONUS_POINTS });
      expect(await rewards.app.get(Ledger).held(rewards.db.manager, userId)).toBe(0);
    }
  });

  it('the database refuses a release that is early or of a reversed credit', async () => {
    const userId = await rewards.registerUser();
    const early = accepted(userId, { points: 900 });
    const reversed = accepted(userId, { points: 900 });
    await deliver(early, reversed);
    await deliver(reversalOf(reversed));
    const release = (reference: string) =>
      rewards.db.query(
        `INSERT INTO ledger_transfers (kind, debit_account_id, credit_account_id, amount, reference)
         SELECT 'hold_release', debit_account_id, credit_account_id, amount, id::text FROM ledger_transfers WHERE kind = 'offerwall_credit' AND reference = $1`,
        [reference],
      );
    await expect(release(`cpx:${early.transactionId}`)).rejects.toMatchObject({ constraint: 'ledger_release_not_due' });
    await expect(release(`cpx:${reversed.transactionId}`)).rejects.toMatchObject({ constraint: 'ledger_release_of_reversed_credit' });
    expect(await balance(userId)).toMatchObject({ points: SIGNUP_BONUS_POINTS, pendingPoints: 900 });
  });
});
