import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { PointsStatement, StatementEntry } from '@esim/contracts';
import { Ledger } from '../ledger/ledger';
import type { TransferKind } from '../ledger/ledger.types';

interface StatementRow {
  seq: string;
  id: string;
  kind: TransferKind;
  amount: string;
  reference: string;
  linked_reference: string | null;
  settled_by: TransferKind | null;
  created_at: Date;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `<wall>:<transaction id>`, the reference of an offer-wall credit and of its reversal. */
function providerTransaction(reference: string): { provider: string | null; transactionId: string | null } {
  const at = reference.indexOf(':');
  return at > 0 ? { provider: reference.slice(0, at), transactionId: reference.slice(at + 1) } : { provider: null, transactionId: reference };
}

const asRedemptionId = (reference: string | null) => (reference && UUID.test(reference) ? reference : null);

/**
 * What one ledger transfer did to the user's available points. A reservation takes them at once
 * (pending until settled); its post books them as spent without changing what is available; its
 * void gives them back. So the `points` of all entries sum to the balance the user sees.
 */
function toEntry(r: StatementRow): StatementEntry {
  const amount = Number(r.amount);
  const base = { id: r.id, amount, occurredAt: r.created_at.toISOString(), provider: null, transactionId: null, redemptionId: null };
  switch (r.kind) {
    case 'signup_bonus':
      return { ...base, kind: 'signup_bonus', points: amount, state: 'done' };
    case 'offerwall_credit':
      return { ...base, ...providerTransaction(r.reference), kind: 'earned', points: amount, state: r.settled_by ? 'reversed' : 'done' };
    case 'offerwall_reversal':
      return { ...base, ...providerTransaction(r.reference), kind: 'reversed', points: -amount, state: 'done' };
    case 'reservation':
      return {
        ...base,
        kind: 'reserved',
        points: -amount,
        redemptionId: asRedemptionId(r.reference),
        state: r.settled_by === 'redemption' ? 'done' : r.settled_by === 'release' ? 'released' : 'pending',
      };
    case 'redemption':
      return { ...base, kind: 'spent', points: 0, redemptionId: asRedemptionId(r.linked_reference), state: 'done' };
    case 'release':
      return { ...base, kind: 'released', points: amount, redemptionId: asRedemptionId(r.linked_reference), state: 'done' };
  }
}

/** The user's points statement (/history): every transfer of their ledger account, newest first. */
@Injectable()
export class PointsStatements {
  constructor(private readonly ledger: Ledger) {}

  async page(m: EntityManager, userId: string, opts: { before?: string; limit: number }): Promise<PointsStatement> {
    const account = await this.ledger.userAccount(m, userId);
    if (!account) return { entries: [], nextCursor: null };
    // seq is the ledger's commit order; the cursor is the seq of the last entry of the previous page.
    const rows: StatementRow[] = await m.query(
      `SELECT t.seq::text AS seq, t.id, t.kind, t.amount, t.reference, t.created_at,
              l.reference AS linked_reference,
              (SELECT s.kind FROM ledger_transfers s WHERE s.linked_id = t.id) AS settled_by
         FROM ledger_transfers t
         LEFT JOIN ledger_transfers l ON l.id = t.linked_id
        WHERE (t.debit_account_id = $1 OR t.credit_account_id = $1)
          AND ($2::bigint IS NULL OR t.seq < $2::bigint)
        ORDER BY t.seq DESC
        LIMIT $3`,
      [account.id, opts.before ?? null, opts.limit + 1],
    );
    const page = rows.slice(0, opts.limit);
    return { entries: page.map(toEntry), nextCursor: rows.length > opts.limit ? page[page.length - 1].seq : null };
  }
}
