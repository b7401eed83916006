import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AppError } from '@esim/platform';
import { accountClosed, insufficientPoints, violates } from './ledger-errors';
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
 * Reservations are for the redemption saga: `reserve` holds points (never below zero), then
 * exactly one of `post` (spend them) or `void` (give them back) settles the reservation.
 */
@Injectable()
export class Ledger {
  private readonly systemIds = new Map<SystemAccount, string>();

  async openUserAccount(m: EntityManager, userId: string): Promise<void> {
    await m.query('INSERT INTO ledger_accounts (user_id) VALUES ($1) ON CONFLICT (user_id) DO NOTHING', [userId]);
  }

  /** Closes the account of a deleted user: its history stays, nothing new is credited or reserved. */
  async closeUserAccount(m: EntityManager, userId: string): Promise<void> {
    await m.query('UPDATE ledger_accounts SET closed_at = now() WHERE user_id = $1 AND closed_at IS NULL', [userId]);
  }

  async userAccount(m: EntityManager, userId: string): Promise<UserAccount | null> {
    const [row] = await m.query('SELECT id, closed_at FROM ledger_accounts WHERE user_id = $1', [userId]);
    return row ? { id: row.id, closed: row.closed_at !== null } : null;
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

  /** Takes one offer-wall credit back, exactly once; the balance may go below zero. */
  reverseCredit(m: EntityManager, credit: Transfer): Promise<TransferResult> {
    if (credit.kind !== 'offerwall_credit') throw new Error(`transfer ${credit.id} is not an offer-wall credit`);
    return this.insert(m, {
      kind: 'offerwall_reversal',
      debitAccountId: credit.creditAccountId,
      creditAccountId: credit.debitAccountId,
      amount: credit.amount,
      reference: credit.reference,
      linkedId: credit.id,
    });
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
      if (violates(err, 'ledger_no_overdraft')) throw insufficientPoints(err, r.amount);
      if (violates(err, 'ledger_account_closed')) throw accountClosed();
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
    if (!row) throw new AppError('not_found', 'No such reservation.', { reason: 'reservation_not_found' });
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
    throw new AppError('conflict', 'This reservation was already settled.', { reason: 'already_settled' });
  }

  private sameOrConflict(t: Transfer, same: (t: Transfer) => boolean): Transfer {
    if (!same(t))
      throw new AppError('conflict', 'This reference was already used for a different reservation.', { reason: 'reference_reused' });
    return t;
  }

  private async openAccountOf(m: EntityManager, userId: string): Promise<string> {
    const account = await this.userAccount(m, userId);
    if (!account) throw new AppError('not_found', 'No points account for this user.', { reason: 'no_account' });
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
