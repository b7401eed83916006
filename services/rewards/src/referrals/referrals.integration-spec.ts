import { randomUUID } from 'node:crypto';
import { AcceptedPostback, OfferwallPostbacksAccepted, ReferralQualified, ReferralRpc, RedemptionRpc, SIGNUP_BONUS_POINTS, SignupReferral, UserRegistered } from '@esim/contracts';
import { asUser, waitFor } from '@esim/testing';
import { expectLedgerInvariants } from '../testing/ledger-invariants';
import { RewardsUnderTest, startRewardsUnderTest } from '../testing/rewards-harness';

const BONUS = 200;

/**
 * Referrals on the real rewards service, broker and Postgres: both bonuses once the friend's first
 * 1000 earned points are spendable, once per friend however often postbacks (and the
 * qualification) are replayed; never for held points; never for a void referral.
 */
describe('referrals', () => {
  let rewards: RewardsUnderTest;

  beforeAll(async () => {
    rewards = await startRewardsUnderTest({
      REFERRAL_BONUS_POINTS: String(BONUS),
      CREDIT_HOLD_MIN_POINTS: '500',
      CREDIT_HOLD_SECONDS: '3600',
      BITLABS_HOLD_SECONDS: '2',
      CREDIT_RELEASE_INTERVAL_MS: '200',
    });
  });
  afterAll(async () => {
    await expectLedgerInvariants(rewards.db);
    await rewards.stop();
  });
  afterEach(() => expectLedgerInvariants(rewards.db));

  const registerFriend = async (referral: SignupReferral): Promise<string> => {
    const userId = randomUUID();
    await rewards.publish(UserRegistered, { userId, email: `${userId}@example.test`, name: 'Friend', locale: 'en', registeredAt: new Date().toISOString(), referral });
    await waitFor(async () => (await rewards.points(userId)) === SIGNUP_BONUS_POINTS, { what: "the friend's sign-up bonus" });
    return userId;
  };
  const credit = (userId: string, points: number, provider: AcceptedPostback['provider'] = 'cpx'): AcceptedPostback => {
    const transactionId = `tx-${randomUUID()}`;
    return { deliveryId: randomUUID(), provider, action: 'credit', transactionId, creditTransactionId: transactionId, userId, points, taskType: 'offer_completion' };
  };
  const deliver = async (...postbacks: AcceptedPostback[]) => {
    const envelope = await rewards.publish(OfferwallPostbacksAccepted, { postbacks, acceptedAt: new Date().toISOString() });
    await rewards.applied(envelope);
  };
  const bonuses = async (friendId: string): Promise<string[]> =>
    (await rewards.db.query(`SELECT reference FROM ledger_transfers WHERE kind = 'referral_bonus' AND reference LIKE $1 ORDER BY reference`, [`${friendId}:%`])).map(
      (r: { reference: string }) => r.reference,
    );
  const listOf = async (inviterId: string) => asUser(inviterId, () => rewards.rpc.call(ReferralRpc.list, {}));

  it('pays both bonuses once when the friend’s first 1000 points become spendable, however often the postbacks are replayed', async () => {
    const inviter = await rewards.registerUser();
    const friend = await registerFriend({ inviterId: inviter, voidReason: null });
    expect((await listOf(inviter)).referrals).toEqual([expect.objectContaining({ friendId: friend, status: 'pending', pointsForYou: 0 })]);

    const first = [credit(friend, 400), credit(friend, 400)];
    await deliver(...first);
    expect(await bonuses(friend)).toEqual([]);
    const last = credit(friend, 250);
    // The qualifying credit and every earlier one, replayed: ten copies at once, then again one by one.
    await Promise.all(Array.from({ length: 10 }, () => deliver(...first, { ...last, deliveryId: randomUUID() })));
    for (let i = 0; i < 3; i++) await deliver({ ...last, deliveryId: randomUUID() });
    await waitFor(async () => (await bonuses(friend)).length === 2, { what: 'the two referral bonuses' });
    // The qualification announced again (a republished event) pays nothing more.
    for (let i = 0; i < 3; i++) await rewards.applied(await rewards.publish(ReferralQualified, { friendId: friend, qualifiedAt: new Date().toISOString() }));

    expect(await bonuses(friend)).toEqual([`${friend}:friend`, `${friend}:inviter`]);
    expect(await rewards.points(friend)).toBe(SIGNUP_BONUS_POINTS + 1050 + BONUS);
    expect(await rewards.points(inviter)).toBe(SIGNUP_BONUS_POINTS + BONUS);
    expect(await listOf(inviter)).toEqual({ bonusPoints: BONUS, referrals: [expect.objectContaining({ friendId: friend, status: 'paid', voidReason: null, pointsForYou: BONUS })] });
    for (const user of [friend, inviter]) {
      const { entries } = await asUser(user, () => rewards.rpc.call(RedemptionRpc.getPointsStatement, {}));
      expect(entries.filter((e) => e.kind === 'referral_bonus')).toEqual([expect.objectContaining({ points: BONUS, state: 'done' })]);
    }
  });

  it('waits for held points to become spendable before paying', async () => {
    const inviter = await rewards.registerUser();
    const friend = await registerFriend({ inviterId: inviter, voidReason: null });
    // BitLabs holds 1200 for two seconds: nothing is paid while it waits.
    await deliver(credit(friend, 1200, 'bitlabs'));
    expect(await bonuses(friend)).toEqual([]);
    expect((await listOf(inviter)).referrals[0].status).toBe('pending');
    await waitFor(async () => (await bonuses(friend)).length === 2, { what: 'the bonuses after the release', timeoutMs: 20_000 });
    expect(await rewards.points(inviter)).toBe(SIGNUP_BONUS_POINTS + BONUS);
  });

  it('never pays a void referral, and says why', async () => {
    const inviter = await rewards.registerUser();
    const friend = await registerFriend({ inviterId: inviter, voidReason: 'same_device' });
    await deliver(credit(friend, 400), credit(friend, 400), credit(friend, 400));
    await rewards.applied(await rewards.publish(ReferralQualified, { friendId: friend, qualifiedAt: new Date().toISOString() }));
    expect(await bonuses(friend)).toEqual([]);
    expect(await rewards.points(inviter)).toBe(SIGNUP_BONUS_POINTS);
    expect((await listOf(inviter)).referrals).toEqual([expect.objectContaining({ friendId: friend, status: 'void', voidReason: 'same_device', pointsForYou: 0 })]);
  });

  it('the database pays each side of a referral once even when asked twice', async () => {
    const inviter = await rewards.registerUser();
    const [{ id: account }] = await rewards.db.query('SELECT id FROM ledger_accounts WHERE user_id = $1', [inviter]);
    const [{ id: referrals }] = await rewards.db.query(`SELECT id FROM ledger_accounts WHERE code = 'referrals'`);
    const pay = () =>
      rewards.db.query(`INSERT INTO ledger_transfers (kind, debit_account_id, credit_account_id, amount, reference) VALUES ('referral_bonus', $1, $2, 200, $3)`, [
        referrals,
        account,
        `${randomUUIDFor(inviter)}:inviter`,
      ]);
    await pay();
    await expect(pay()).rejects.toThrow(/ledger_transfers_unique_reference/);
  });
});

/** A fixed friend id per inviter, for the database test above. */
const randomUUIDFor = (() => {
  const ids = new Map<string, string>();
  return (key: string) => ids.get(key) ?? (ids.set(key, randomUUID()), ids.get(key)!);
})();
