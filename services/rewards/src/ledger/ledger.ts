import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AppError, isCheckViolation, PreparedStatement } from '@esim/platform';
import { accountClosed, insufficientPoints } from './ledger-errors';
import { Balance, CreditKind, SystemAccount, Transfer, TransferKind, TransferResult, UserAccount } from './ledger.types';

const TRANSFER_COLUMNS = 'id, kind, debit_account_id, credit_account_id, amount, reference, linked_id, created_at';

interface TransferRow {
  id: string;
  kind: TransferKind;
  debit_account_id: string;
  credit_account_id: string;
  amount: string;
  reference: string;
  linked_id: string | null;
  created_at: Date;
}

/**
 * The statements of every batch of offer-wall credits, prepared (PreparedStatement): planned once
 * per connection instead of at each batch.
 */
const OPEN_ACCOUNTS = new PreparedStatement('INSERT INTO ledger_accounts (user_id) SELECT unnest($1::uuid[]) ON CONFLICT (user_id) DO NOTHING');
const ACCOUNTS_OF = new PreparedStatement<{ id: string; user_id: string; closed_at: Date | null }>(
  'SELECT id, user_id, closed_at FROM ledger_accounts WHERE user_id = ANY($1::uuid[])',
);
/**
 * The conflict target is the unique reference, the only key a credit can repeat: without one,
 * Postgres probes every unique index of the table before each row (the id and seq too, which are
 * generated and never collide), two extra index descents per credit.
 */
const CREDIT_MANY = new PreparedStatement<TransferRow>(`INSERT INTO ledger_transfers (kind, debit_account_id, credit_account_id, amount, reference)
  SELECT $1, $2, t.account, t.amount, t.reference FROM unnest($3::uuid[], $4::bigint[], $5::text[]) AS t(account, amount, reference)
  ON CONFLICT (kind, reference) DO NOTHING RETURNING ${TRANSFER_COLUMNS}`);
/** The same with each credit's `held_until` (null: available at once; migration 1736200000000). */
const CREDIT_MANY_HELD = new PreparedStatement<TransferRow>(`INSERT INTO ledger_transfers (kind, debit_account_id, credit_account_id, amount, reference, held_until)
  SELECT $1, $2, t.account, t.amount, t.reference, t.held_until
    FROM unnest($3::uuid[], $4::bigint[], $5::text[], $6::timestamptz[]) AS t(account, amount, reference, held_until)
  ON CONFLICT (kind, reference) DO NOTHING RETURNING ${TRANSFER_COLUMNS}`);

const toTransfer = (r: TransferRow): Transfer => ({
  id: r.id,
  kind: r.kind,
  debitAccountId: r.debit_account_id,
  creditAccountId: r.credit_account_id,
  amount: Number(r.amount),
  reference: r.reference,
  linkedId: r.linked_id,
  createdAt: r.created_at,
});

interface NewTransfer {
  kind: TransferKind;
  debitAccountId: string;
  creditAccountId: string;
  amount: number;
  reference: string;
  linkedId?: string;
}

/**
 * The points ledger (see the ledger migration for the rules the database enforces). Every method
 * takes the EntityManager of the caller's transaction, so a ledger change commits together with
 * the caller's records and events. Transfers are idempotent by (kind, reference).
 *
 * Raw SQL through the service's DataSource, unlike the ordinary tables (TypeORM entities): the
 * ledger's guarantees are the database's (triggers, `ON CONFLICT` on the unique reference, the
 * errors the triggers raise by constraint name, the `ledger_balances` view), so each statement is
 * written for exactly the rule it relies on, and entries are never mapped as entities that could
 * be saved.
 *
 * Reservations are for the redemption saga: `reserve` holds points (never below zero), then
 * exactly one of `post` (spend them) or `void` (give them back) settles the reservation.
 */
@Injectable()
export class Ledger {
  private readonly systemIds = new Map<SystemAccount, string>();

  /** Opens the user's account; answers it as it stands (a closed account stays closed). */
  async openUserAccount(m: EntityManager, userId: string): Promise<UserAccount> {
    await m.query('INSERT INTO ledger_accounts (user_id) VALUES ($1) ON CONFLICT (user_id) DO NOTHING', [userId]);
    return (await this.userAccount(m, userId))!;
  }

  /**
   * Closes the account of a deleted user: its history stays, nothing new is credited or reserved.
   * The deletion may arrive before the registration that opens the account (the two events are
   * delivered independently): then the account is created closed, and opening it later finds it so.
   */
  async closeUserAccount(m: EntityManager, userId: string): Promise<void> {
    await m.query(
      `INSERT INTO ledger_accounts (user_id, closed_at) VALUES ($1, now())
       ON CONFLICT (user_id) DO UPDATE SET closed_at = now() WHERE ledger_accounts.closed_at IS NULL`,
      [userId],
    );
  }

  async userAccount(m: EntityManager, userId: string): Promise<UserAccount | null> {
    const [row] = await m.query('SELECT id, closed_at FROM ledger_accounts WHERE user_id = $1', [userId]);
    return row ? { id: row.id, closed: row.closed_at !== null } : null;
  }

  /**
   * The accounts of many users, opening those that have none yet (a closed one stays closed). For
   * offer-wall credits: the ingestion service accepts a postback only for a user whose registration
   * it has seen, so a missing account means that registration has not reached rewards yet.
   */
  async openUserAccounts(m: EntityManager, userIds: string[]): Promise<Map<string, UserAccount>> {
    // Sorted: concurrent batches then take the rows' locks in the same order (no deadlock).
    const unique = [...new Set(userIds)].sort();
    await OPEN_ACCOUNTS.run(m, [unique]);
    const rows = await ACCOUNTS_OF.run(m, [unique]);
    return new Map(rows.map((r) => [r.user_id, { id: r.id, closed: r.closed_at !== null }]));
  }

  /** Moves `amount` from a system account to the user's open account. */
  async credit(
    m: EntityManager,
    c: { kind: CreditKind; from: SystemAccount; userId: string; amount: number; reference: string },
  ): Promise<TransferResult> {
    const account = await this.openAccountOf(m, c.userId);
    return this.insert(m, {
      kind: c.kind,
      debitAccountId: await this.systemAccountId(m, c.from),
      creditAccountId: account,
      amount: c.amount,
      reference: c.reference,
    });
  }

  /**
   * Many credits from one system account to open accounts, in one statement: one transfer per
   * (kind, reference), so a reference credited before (or twice in `credits`) answers the earlier
   * transfer with `created: false`. Answers in the order of `credits`. A credit with `heldUntil`
   * is held: its points cannot be spent until the release job makes them available at that time.
   */
  async creditMany(
    m: EntityManager,
    kind: CreditKind,
    from: SystemAccount,
    credits: ReadonlyArray<{ accountId: string; amount: number; reference: string; heldUntil?: Date | null }>,
  ): Promise<TransferResult[]> {
    if (credits.length === 0) return [];
    const columns = [
      kind,
      await this.systemAccountId(m, from),
      credits.map((c) => c.accountId),
      credits.map((c) => c.amount),
      credits.map((c) => c.reference),
    ];
    const inserted = credits.some((c) => c.heldUntil)
      ? await CREDIT_MANY_HELD.run(m, [...columns, credits.map((c) => c.heldUntil?.toISOString() ?? null)])
      : await CREDIT_MANY.run(m, columns);
    return this.resultsFor(m, kind, credits, inserted);
  }

  /**
   * Makes due held credits available (`hold_release`, one per credit: its reference is the
   * credit's id) for up to `limit` credits, the earliest due first; answers the users whose
   * balance changed. Credits reversed meanwhile are not in `ledger_holds` any more. The caller
   * holds the users' account rows (`BalanceAnnouncements.lock`), the lock a reversal of the same
   * credit takes too, so the two take turns.
   */
  async releaseDue(m: EntityManager, accountIds: readonly string[], limit: number): Promise<Array<{ accountId: string; amount: number }>> {
    if (accountIds.length === 0) return [];
    return m.query(
      `INSERT INTO ledger_transfers (kind, debit_account_id, credit_account_id, amount, reference)
       SELECT 'hold_release', c.debit_account_id, c.credit_account_id, c.amount, c.id::text
         FROM (SELECT h.credit_id FROM ledger_holds h
                WHERE h.account_id = ANY($1::uuid[]) AND h.available_at <= now()
                ORDER BY h.available_at LIMIT $2) due
         JOIN ledger_transfers c ON c.id = due.credit_id
       ON CONFLICT (kind, reference) DO NOTHING
       RETURNING credit_account_id AS "accountId", amount::int AS amount`,
      [accountIds, limit],
    );
  }

  /** The user's held credits not yet released, the earliest due first. */
  async holdsOf(m: EntityManager, userId: string, limit: number): Promise<Array<{ points: number; availableAt: Date }>> {
    const rows: Array<{ amount: string; available_at: Date }> = await m.query(
      `SELECT h.amount, h.available_at FROM ledger_holds h JOIN ledger_accounts a ON a.id = h.account_id
        WHERE a.user_id = $1 ORDER BY h.available_at, h.credit_id LIMIT $2`,
      [userId, limit],
    );
    return rows.map((r) => ({ points: Number(r.amount), availableAt: r.available_at }));
  }

  /** Takes one offer-wall credit back, exactly once; the balance may go below zero. */
  async reverseCredit(m: EntityManager, credit: Transfer): Promise<TransferResult> {
    const [result] = await this.reverseCredits(m, [credit]);
    return result;
  }

  /**
   * Takes offer-wall credits back, each exactly once, in one statement; balances may go below zero.
   * A credit still held is cancelled instead: its held points go, the spendable balance stays
   * (the ledger's entries trigger decides, under the account's lock: migration 1736200000000).
   */
  async reverseCredits(m: EntityManager, credits: readonly Transfer[]): Promise<TransferResult[]> {
    if (credits.length === 0) return [];
    for (const c of credits) if (c.kind !== 'offerwall_credit') throw new Error(`transfer ${c.id} is not an offer-wall credit`);
    const inserted: TransferRow[] = await m.query(
      `INSERT INTO ledger_transfers (kind, debit_account_id, credit_account_id, amount, reference, linked_id)
       SELECT 'offerwall_reversal', t.debit, t.credit, t.amount, t.reference, t.linked
         FROM unnest($1::uuid[], $2::uuid[], $3::bigint[], $4::text[], $5::uuid[]) AS t(debit, credit, amount, reference, linked)
       ON CONFLICT DO NOTHING RETURNING ${TRANSFER_COLUMNS}`,
      [
        credits.map((c) => c.creditAccountId),
        credits.map((c) => c.debitAccountId),
        credits.map((c) => c.amount),
        credits.map((c) => c.reference),
        credits.map((c) => c.id),
      ],
    );
    return this.resultsFor(m, 'offerwall_reversal', credits, inserted);
  }

  /** Transfers of one kind by reference; absent references are absent from the map. */
  async findMany(m: EntityManager, kind: TransferKind, references: readonly string[]): Promise<Map<string, Transfer>> {
    if (references.length === 0) return new Map();
    const rows: TransferRow[] = await m.query(
      `SELECT ${TRANSFER_COLUMNS} FROM ledger_transfers WHERE kind = $1 AND reference = ANY($2::text[])`,
      [kind, [...new Set(references)]],
    );
    return new Map(rows.map((r) => [r.reference, toTransfer(r)]));
  }

  /**
   * Holds `amount` of the user's available points. Idempotent by `reference`: the same request
   * again answers the same reservation. Throws 409 insufficient_points when they do not cover it.
   */
  async reserve(m: EntityManager, r: { userId: string; amount: number; reference: string }): Promise<Transfer> {
    const account = await this.openAccountOf(m, r.userId);
    const same = (t: Transfer) => t.debitAccountId === account && t.amount === r.amount;
    const earlier = await this.find(m, 'reservation', r.reference);
    if (earlier) return this.sameOrConflict(earlier, same);

    await m.query('SAVEPOINT ledger_reserve');
    try {
      const { transfer } = await this.insert(m, {
        kind: 'reservation',
        debitAccountId: account,
        creditAccountId: await this.systemAccountId(m, 'redemptions'),
        amount: r.amount,
        reference: r.reference,
      });
      await m.query('RELEASE SAVEPOINT ledger_reserve');
      return this.sameOrConflict(transfer, same);
    } catch (err) {
      await m.query('ROLLBACK TO SAVEPOINT ledger_reserve');
      // The same reservation, made at the same moment by a retry, may have taken the points first.
      const raced = await this.find(m, 'reservation', r.reference);
      if (raced) return this.sameOrConflict(raced, same);
      if (isCheckViolation(err, 'ledger_no_overdraft')) throw insufficientPoints(err, r.amount);
      if (isCheckViolation(err, 'ledger_account_closed')) throw accountClosed();
      throw err;
    }
  }

  /** Spends a reservation's points. Idempotent; refused once the reservation was voided. */
  post(m: EntityManager, reservationId: string): Promise<Transfer> {
    return this.settle(m, 'redemption', reservationId);
  }

  /** Gives a reservation's points back. Idempotent; refused once the reservation was posted. */
  void(m: EntityManager, reservationId: string): Promise<Transfer> {
    return this.settle(m, 'release', reservationId);
  }

  async find(m: EntityManager, kind: TransferKind, reference: string): Promise<Transfer | null> {
    const [row] = await m.query(`SELECT ${TRANSFER_COLUMNS} FROM ledger_transfers WHERE kind = $1 AND reference = $2`, [kind, reference]);
    return row ? toTransfer(row) : null;
  }

  async balance(m: EntityManager, userId: string): Promise<Balance> {
    const [row] = await m.query('SELECT posted, pending, available FROM ledger_balances WHERE user_id = $1', [userId]);
    return { posted: Number(row?.posted ?? 0), pending: Number(row?.pending ?? 0), available: Number(row?.available ?? 0) };
  }

  /** The user's held points: credited, not spendable until released (migration 1736200000000). */
  async held(m: EntityManager, userId: string): Promise<number> {
    const [row] = await m.query('SELECT held FROM ledger_balances WHERE user_id = $1', [userId]);
    return Number(row?.held ?? 0);
  }

  /** Available points of many users; users without an account are absent from the map. */
  async availableOf(m: EntityManager, userIds: string[]): Promise<Map<string, number>> {
    const rows: Array<{ user_id: string; available: string }> = await m.query(
      'SELECT user_id, available FROM ledger_balances WHERE user_id = ANY($1::uuid[])',
      [userIds],
    );
    return new Map(rows.map((r) => [r.user_id, Number(r.available)]));
  }

  private async settle(m: EntityManager, kind: 'redemption' | 'release', reservationId: string): Promise<Transfer> {
    const [row] = await m.query(`SELECT ${TRANSFER_COLUMNS} FROM ledger_transfers WHERE id = $1 AND kind = 'reservation'`, [reservationId]);
    if (!row) throw new AppError('reservation_not_found', 'No such reservation.');
    const reservation = toTransfer(row);
    const { transfer } = await this.insert(m, {
      kind,
      debitAccountId: reservation.debitAccountId,
      creditAccountId: reservation.creditAccountId,
      amount: reservation.amount,
      reference: reservation.id,
      linkedId: reservation.id,
    });
    return transfer;
  }

  /** Inserts a transfer; answers the earlier one when its (kind, reference) exists. */
  private async insert(m: EntityManager, t: NewTransfer): Promise<TransferResult> {
    const rows: TransferRow[] = await m.query(
      `INSERT INTO ledger_transfers (kind, debit_account_id, credit_account_id, amount, reference, linked_id)
       VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING RETURNING ${TRANSFER_COLUMNS}`,
      [t.kind, t.debitAccountId, t.creditAccountId, t.amount, t.reference, t.linkedId ?? null],
    );
    if (rows.length > 0) return { transfer: toTransfer(rows[0]), created: true };
    const earlier = await this.find(m, t.kind, t.reference);
    if (earlier) return { transfer: earlier, created: false };
    // Not our reference: the linked transfer was settled the other way (a post after a void, …).
    throw new AppError('already_settled', 'This reservation was already settled.');
  }

  /**
   * Pairs each requested reference with its transfer: the first request of a reference that was
   * just inserted created it; every other one (an earlier transfer, or the same reference twice in
   * one batch) did not.
   */
  private async resultsFor(
    m: EntityManager,
    kind: TransferKind,
    requested: ReadonlyArray<{ reference: string }>,
    inserted: TransferRow[],
  ): Promise<TransferResult[]> {
    const created = new Map(inserted.map((r) => [r.reference, toTransfer(r)]));
    const missing = requested.map((r) => r.reference).filter((ref) => !created.has(ref));
    const earlier = await this.findMany(m, kind, missing);
    const claimed = new Set<string>();
    return requested.map(({ reference }) => {
      const fresh = created.get(reference);
      if (fresh && !claimed.has(reference)) {
        claimed.add(reference);
        return { transfer: fresh, created: true };
      }
      const transfer = fresh ?? earlier.get(reference);
      // Not our reference: the linked transfer was settled another way (a credit reversed under another reference).
      if (!transfer) throw new AppError('already_settled', 'This transfer was already settled.');
      return { transfer, created: false };
    });
  }

  private sameOrConflict(t: Transfer, same: (t: Transfer) => boolean): Transfer {
    if (!same(t))
      throw new AppError('reference_reused', 'This reference was already used for a different reservation.');
    return t;
  }

  private async openAccountOf(m: EntityManager, userId: string): Promise<string> {
    const account = await this.userAccount(m, userId);
    if (!account) throw new AppError('no_account', 'No points account for this user.');
    if (account.closed) throw accountClosed();
    return account.id;
  }

  private async systemAccountId(m: EntityManager, code: SystemAccount): Promise<string> {
    let id = this.systemIds.get(code);
    if (!id) {
      const [row] = await m.query('SELECT id FROM ledger_accounts WHERE code = $1', [code]);
      if (!row) throw new Error(`system account ${code} is missing: has the ledger migration run?`);
      id = row.id as string;
      this.systemIds.set(code, id);
    }
    return id;
  }
}
