import { randomUUID } from 'node:crypto';
import { AccountDeleted, RewardsRpc, SIGNUP_BONUS_POINTS, UserRegistered } from '@esim/contracts';
import { asUser, waitFor } from '@esim/testing';
import { expectLedgerInvariants } from '../testing/ledger-invariants';
import { RewardsUnderTest, startRewardsUnderTest } from '../testing/rewards-harness';

describe('sign-up bonus (rewards consuming identity events on the real broker)', () => {
  let rewards: RewardsUnderTest;

  beforeAll(async () => {
    rewards = await startRewardsUnderTest();
  });
  afterAll(async () => {
    await expectLedgerInvariants(rewards.db);
    await rewards.stop();
  });

  it('credits 100 points once when UserRegistered arrives twice (redelivered, and republished under a new id)', async () => {
    const userId = randomUUID();
    const payload = { userId, email: 'ana@example.test', name: 'Ana', locale: 'pt' as const, registeredAt: new Date().toISOString() };
    const first = await rewards.publish(UserRegistered, payload);
    await rewards.publish(UserRegistered, payload, { id: first.id });
    const copy = await rewards.publish(UserRegistered, payload);

    await waitFor(
      async () =>
        (await rewards.db.query('SELECT event_id FROM inbox_events WHERE event_id = ANY($1)', [[first.id, copy.id]])).length === 2,
      {
        what: 'both events in the inbox',
      },
    );
    // The copy's inbox row commits with its effect; the redelivered first event finds its row and does nothing.

    expect(await asUser(userId, () => rewards.rpc.call(RewardsRpc.getBalance, {}))).toEqual({ userId, points: SIGNUP_BONUS_POINTS });
    const bonuses = await rewards.db.query(`SELECT amount FROM ledger_transfers WHERE kind = 'signup_bonus' AND reference = $1`, [userId]);
    expect(bonuses).toEqual([{ amount: String(SIGNUP_BONUS_POINTS) }]);
  });

  it('answers the balance of the acting user (meta.userId) only: a userId in the request is no one', async () => {
    const userId = await rewards.registerUser();
    // A caller still sending the old request shape: the id is not read, and there is no acting user.
    await expect(rewards.rpc.call(RewardsRpc.getBalance, { userId } as never)).rejects.toMatchObject({ code: 'unauthorized' });
    await expect(rewards.rpc.call(RewardsRpc.listTasks, {})).rejects.toMatchObject({ code: 'unauthorized' });
  });

  it('answers 0 points for a user it has not heard of; balances of many users only to an admin', async () => {
    const known = await rewards.registerUser();
    const unknown = randomUUID();
    expect(await asUser(unknown, () => rewards.rpc.call(RewardsRpc.getBalance, {}))).toEqual({ userId: unknown, points: 0 });
    // Admin-only (test/admin/admin-rpcs.e2e-spec.ts answers it to an admin, with identity running).
    await expect(rewards.rpc.call(RewardsRpc.getBalances, { userIds: [known, unknown] })).rejects.toMatchObject({ code: 'unauthorized' });
  });

  it('AccountDeleted closes the points account but keeps its ledger history', async () => {
    const userId = await rewards.registerUser();
    const deleted = await rewards.publish(AccountDeleted, { userId, deletedAt: new Date().toISOString() });
    await waitFor(async () => (await rewards.db.query('SELECT 1 FROM inbox_events WHERE event_id = $1', [deleted.id])).length === 1, {
      what: 'AccountDeleted applied',
    });

    const [account] = await rewards.db.query('SELECT closed_at FROM ledger_accounts WHERE user_id = $1', [userId]);
    expect(account.closed_at).not.toBeNull();
    const history = await rewards.db.query(
      `SELECT kind FROM ledger_transfers t JOIN ledger_accounts a ON a.id = t.credit_account_id WHERE a.user_id = $1`,
      [userId],
    );
    expect(history).toEqual([{ kind: 'signup_bonus' }]);
  });

  describe('a deleted account stays closed whatever order the events arrive in', () => {
    const applied = (ids: string[]) => async () =>
      (await rewards.db.query('SELECT event_id FROM inbox_events WHERE event_id = ANY($1)', [ids])).length === ids.length;
    const registration = (userId: string) => ({
      userId,
      email: `${userId}@example.test`,
      name: 'Late',
      locale: 'en' as const,
      registeredAt: new Date().toISOString(),
    });
    const accountOf = async (userId: string) =>
      (await rewards.db.query('SELECT closed_at FROM ledger_accounts WHERE user_id = $1', [userId])) as Array<{ closed_at: Date | null }>;

    it('AccountDeleted applied before UserRegistered: the account is created closed, no bonus, nothing dead-lettered', async () => {
      const userId = randomUUID();
      const deleted = await rewards.publish(AccountDeleted, { userId, deletedAt: new Date().toISOString() });
      await waitFor(applied([deleted.id]), { what: 'AccountDeleted applied' });
      const registered = await rewards.publish(UserRegistered, registration(userId));
      // The inbox row commits only with a successful handler: a failing one would be retried, then dead-lettered.
      await waitFor(applied([registered.id]), { what: 'UserRegistered applied' });

      const account = await accountOf(userId);
      expect(account).toHaveLength(1);
      expect(account[0].closed_at).not.toBeNull();
      expect(await rewards.db.query(`SELECT 1 FROM ledger_transfers WHERE kind = 'signup_bonus' AND reference = $1`, [userId])).toEqual([]);
      expect(await asUser(userId, () => rewards.rpc.call(RewardsRpc.getBalance, {}))).toEqual({ userId, points: 0 });
      expect(await rewards.deadLettered()).toBe(0);
    });

    it('both events delivered at once, for many users: every account ends closed', async () => {
      const users = Array.from({ length: 20 }, () => randomUUID());
      const envelopes = await Promise.all(
        users.flatMap((userId, i) => {
          const deletion = () => rewards.publish(AccountDeleted, { userId, deletedAt: new Date().toISOString() });
          const signup = () => rewards.publish(UserRegistered, registration(userId));
          return i % 2 === 0 ? [deletion(), signup()] : [signup(), deletion()];
        }),
      );
      await waitFor(applied(envelopes.map((e) => e.id)), { what: 'every event applied', timeoutMs: 20_000 });

      const open = await rewards.db.query('SELECT user_id FROM ledger_accounts WHERE user_id = ANY($1) AND closed_at IS NULL', [users]);
      expect(open).toEqual([]);
      expect(await rewards.db.query('SELECT count(*)::int AS n FROM ledger_accounts WHERE user_id = ANY($1)', [users])).toEqual([{ n: 20 }]);
      expect(await rewards.deadLettered()).toBe(0);
    });
  });
});
