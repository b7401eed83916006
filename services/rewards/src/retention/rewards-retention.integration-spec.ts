import { randomUUID } from 'node:crypto';
import { RedemptionRpc } from '@esim/contracts';
import { CONFIG, RetentionSweeper } from '@esim/platform';
import { asUser, retentionReplica, touchedIn } from '@esim/testing';
import type { RewardsConfig } from '../config';
import { expectLedgerInvariants } from '../testing/ledger-invariants';
import { RewardsUnderTest, startRewardsUnderTest } from '../testing/rewards-harness';
import { rewardsRetention } from './rewards-retention';

interface Balance {
  posted: string;
  pending: string;
  held: string;
  available: string;
}

/**
 * Rewards' retention (docs/accounts.md, "Retention") on the real schema: transaction records older
 * than TRANSACTION_RETENTION_YEARS go, and each account's settled ledger history older than that is
 * replaced by one carried-forward entry, run by the service's sweeper and a second replica's at
 * once. Every balance (posted, pending, held) is the same after; what is pending, held, recent or
 * still named by a record stays; the ledger refuses any other deletion.
 */
describe('rewards retention: the ledger carried forward', () => {
  let rewards: RewardsUnderTest;
  const system: Record<string, string> = {};

  beforeAll(async () => {
    rewards = await startRewardsUnderTest({ RETENTION_SWEEP_MS: '3600000' });
    // The sweep the service starts with must not fold the history below on its own: the test runs the sweeps itself.
    await rewards.app.get(RetentionSweeper).stop();
    for (const r of await rewards.db.query<Array<{ id: string; code: string }>>(
      'SELECT id, code FROM ledger_accounts WHERE code IS NOT NULL',
    ))
      system[r.code] = r.id;
  });
  afterAll(async () => {
    await rewards?.stop();
  });

  const account = async (): Promise<string> =>
    (await rewards.db.query<Array<{ id: string }>>('INSERT INTO ledger_accounts (user_id) VALUES ($1) RETURNING id', [randomUUID()]))[0].id;

  /** A transfer written `age` ago, through every check of the ledger. */
  const transfer = async (t: {
    kind: string;
    from: string;
    to: string;
    amount: number;
    age: string;
    reference?: string;
    linked?: string;
    heldUntil?: string;
  }) =>
    (
      await rewards.db.query<Array<{ id: string }>>(
        `INSERT INTO ledger_transfers (kind, debit_account_id, credit_account_id, amount, reference, linked_id, held_until, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, now() - $7::interval, now() - $8::interval) RETURNING id`,
        [t.kind, t.from, t.to, t.amount, t.reference ?? randomUUID(), t.linked ?? null, t.heldUntil ?? null, t.age],
      )
    )[0].id;

  const balances = async (ids: string[]): Promise<Balance[]> =>
    rewards.db.query(
      'SELECT posted::text, pending::text, held::text, available::text FROM ledger_balances WHERE account_id = ANY($1) ORDER BY account_id',
      [ids],
    );
  const transfersOf = async (id: string): Promise<Array<{ kind: string; amount: string }>> =>
    rewards.db.query('SELECT kind, amount::text FROM ledger_transfers WHERE debit_account_id = $1 OR credit_account_id = $1 ORDER BY seq', [
      id,
    ]);

  it('folds settled history older than the retention into one entry per account, once across two replicas, every balance unchanged', async () => {
    const old = '8 years';
    // u: a bit of everything.
    const u = await account();
    await transfer({ kind: 'signup_bonus', from: system.signup_bonus, to: u, amount: 100, age: old });
    const earned = await transfer({
      kind: 'offerwall_credit',
      from: system.offerwalls,
      to: u,
      amount: 1000,
      age: old,
      reference: 'cpx:old-task',
    });
    const userId = (await rewards.db.query<Array<{ user_id: string }>>('SELECT user_id FROM ledger_accounts WHERE id = $1', [u]))[0]
      .user_id;
    // Its task, a transaction record of the same age, goes first and lets the credit go.
    await rewards.db.query(
      `INSERT INTO tasks (user_id, task_type, points_earned, provider, transaction_id, ledger_transfer_id, completed_at)
       VALUES ($1, 'offer_completion', 1000, 'cpx', 'old-task', $2, now() - $3::interval)`,
      [userId, earned, old],
    );
    const spent = await transfer({ kind: 'reservation', from: u, to: system.redemptions, amount: 1000, age: old });
    await transfer({ kind: 'redemption', from: u, to: system.redemptions, amount: 1000, age: old, linked: spent });
    // Reversed within the retention: the credit stays with its reversal.
    const reversedLater = await transfer({ kind: 'offerwall_credit', from: system.offerwalls, to: u, amount: 300, age: old });
    await transfer({ kind: 'offerwall_reversal', from: u, to: system.offerwalls, amount: 300, age: '3 years', linked: reversedLater });
    // Pending and held points are never folded.
    await transfer({ kind: 'reservation', from: u, to: system.redemptions, amount: 50, age: old });
    await transfer({ kind: 'offerwall_credit', from: system.offerwalls, to: u, amount: 600, age: old, heldUntil: '8 years' });
    const released = await transfer({
      kind: 'offerwall_credit',
      from: system.offerwalls,
      to: u,
      amount: 700,
      age: old,
      heldUntil: '8 years',
    });
    await transfer({ kind: 'hold_release', from: system.offerwalls, to: u, amount: 700, age: old, reference: released });
    // Recent: stays.
    await transfer({ kind: 'offerwall_credit', from: system.offerwalls, to: u, amount: 200, age: '1 year' });

    // v: a history that nets to nothing.
    const v = await account();
    await transfer({ kind: 'signup_bonus', from: system.signup_bonus, to: v, amount: 100, age: old });
    const vReserved = await transfer({ kind: 'reservation', from: v, to: system.redemptions, amount: 100, age: old });
    await transfer({ kind: 'release', from: v, to: system.redemptions, amount: 100, age: old, linked: vReserved });
    const vAgain = await transfer({ kind: 'reservation', from: v, to: system.redemptions, amount: 100, age: old });
    await transfer({ kind: 'redemption', from: v, to: system.redemptions, amount: 100, age: old, linked: vAgain });

    // w: below zero (a reversal after the points were spent).
    const w = await account();
    const wEarned = await transfer({ kind: 'offerwall_credit', from: system.offerwalls, to: w, amount: 500, age: old });
    const wSpent = await transfer({ kind: 'reservation', from: w, to: system.redemptions, amount: 500, age: old });
    await transfer({ kind: 'redemption', from: w, to: system.redemptions, amount: 500, age: old, linked: wSpent });
    await transfer({ kind: 'offerwall_reversal', from: w, to: system.offerwalls, amount: 500, age: old, linked: wEarned });

    const accounts = [u, v, w];
    const before = await balances(accounts);
    const [{ total_before }] = await rewards.db.query('SELECT sum(amount)::text AS total_before FROM ledger_entries');

    const config = rewards.app.get<RewardsConfig>(CONFIG);
    const own = rewards.app.get(RetentionSweeper);
    const replica = await retentionReplica(rewards.ns.schema('rewards'), rewardsRetention(config));
    const second = replica.sweeper;
    // Two replicas at once: the jobs share one lock, so one sweep may leave work to the next, never do it twice.
    const rounds = await (async () => [
      ...(await Promise.all([own.sweep(), second.sweep()])),
      await own.sweep(),
      await second.sweep(),
    ])().finally(() => replica.close());
    expect({ tasks: touchedIn(rounds, 'tasks'), ledger: touchedIn(rounds, 'ledger') }).toEqual({ tasks: 1, ledger: 3 });

    expect(await balances(accounts)).toEqual(before);
    expect(before.map((x) => x.available)).toEqual(expect.arrayContaining(['950', '0', '-500']));
    expect(await transfersOf(u)).toEqual([
      { kind: 'offerwall_credit', amount: '300' },
      { kind: 'offerwall_reversal', amount: '300' },
      { kind: 'reservation', amount: '50' },
      { kind: 'offerwall_credit', amount: '600' },
      { kind: 'offerwall_credit', amount: '200' },
      { kind: 'carried_forward', amount: '800' },
    ]);
    expect(await transfersOf(v)).toEqual([{ kind: 'carried_forward', amount: '0' }]);
    expect(await transfersOf(w)).toEqual([{ kind: 'carried_forward', amount: '500' }]);
    // The user's statement shows the carried balance as one line, which adds up to the balance with the rest.
    const { entries } = await asUser(userId, () => rewards.rpc.call(RedemptionRpc.getPointsStatement, { limit: 50 }));
    expect(entries[0]).toMatchObject({ kind: 'carried_forward', points: 800, amount: 800, state: 'done' });
    expect(entries.reduce((sum, e) => sum + e.points, 0)).toBe(950);
    const [{ total_after }] = await rewards.db.query('SELECT sum(amount)::text AS total_after FROM ledger_entries');
    expect(total_after).toBe(total_before);
    await expectLedgerInvariants(rewards.db);

    // Run again: nothing more to fold.
    expect(await rewards.app.get(RetentionSweeper).sweep()).toMatchObject({ tasks: 0, ledger: 0 });
    expect(await balances(accounts)).toEqual(before);
  });

  it('refuses any other deletion of the ledger, and a carried-forward balance that is not the sum it replaces', async () => {
    const u = await account();
    const bonus = await transfer({ kind: 'signup_bonus', from: system.signup_bonus, to: u, amount: 100, age: '8 years' });
    await expect(rewards.db.query('DELETE FROM ledger_transfers WHERE id = $1', [bonus])).rejects.toThrow(/append-only/);
    // The fold's own flag does not open the ledger to a statement outside its trigger.
    await expect(
      rewards.db.transaction(async (m) => {
        await m.query(`SELECT set_config('ledger.folding', 'on', true)`);
        await m.query('DELETE FROM ledger_entries WHERE transfer_id = $1', [bonus]);
      }),
    ).rejects.toThrow(/append-only/);
    const carry = (amount: number) =>
      rewards.db.query(
        `INSERT INTO ledger_transfers (kind, debit_account_id, credit_account_id, amount, reference, carried_until)
         VALUES ('carried_forward', $1, $2, $3, $4, now() - interval '7 years')`,
        [system.carried_forward, u, amount, randomUUID()],
      );
    await expect(carry(99)).rejects.toThrow(/ledger_carried_forward_matches|sum of the settled entries/);
    await expect(carry(0)).rejects.toThrow(/sum of the settled entries/);
    // Between two users, or from another system account: refused.
    await expect(
      rewards.db.query(
        `INSERT INTO ledger_transfers (kind, debit_account_id, credit_account_id, amount, reference, carried_until)
         VALUES ('carried_forward', $1, $2, 100, $3, now() - interval '7 years')`,
        [system.offerwalls, u, randomUUID()],
      ),
    ).rejects.toThrow(/carried_forward/);
    expect((await balances([u]))[0].posted).toBe('100');
    await carry(100);
    expect(await transfersOf(u)).toEqual([{ kind: 'carried_forward', amount: '100' }]);
    expect((await balances([u]))[0].posted).toBe('100');
    await expectLedgerInvariants(rewards.db);
  });
});
