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
  held_until: Date | null;
  released: boolean;
  held_layer: boolean;
  offer_name: string | null;
  reversal_reason: string | null;
  claim_wall: string | null;
  credit_account_id: string;
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
function toEntry(r: StatementRow, accountId: string): StatementEntry {
  const amount = Number(r.amount);
  const base = { id: r.id, amount, occurredAt: r.created_at.toISOString(), provider: null, transactionId: null, redemptionId: null };
  const wall = { ...providerTransaction(r.reference), offerName: r.offer_name };
  switch (r.kind) {
    case 'signup_bonus':
      return { ...base, kind: 'signup_bonus', points: amount, state: 'done' };
    case 'offerwall_credit':
      // A held credit adds nothing spendable itself: its release (`available`) does.
      if (r.held_until)
        return {
          ...base,
          ...wall,
          kind: 'earned',
          points: 0,
          state: r.settled_by ? 'reversed' : r.released ? 'done' : 'pending',
          availableAt: r.held_until.toISOString(),
        };
      return { ...base, ...wall, kind: 'earned', points: amount, state: r.settled_by ? 'reversed' : 'done' };
    case 'offerwall_reversal':
      return {
        ...base,
        ...wall,
        kind: 'reversed',
        points: r.held_layer ? 0 : -amount,
        state: 'done',
        reason: r.reversal_reason,
        cancelledHeld: r.held_layer,
      };
    case 'hold_release':
      return { ...base, ...wall, kind: 'available', points: amount, state: 'done', availableAt: r.created_at.toISOString() };
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
    case 'claim_credit':
      return { ...base, kind: 'claim_credited', points: amount, state: 'done', provider: r.claim_wall, offerName: r.offer_name };
    case 'referral_bonus':
      return { ...base, kind: 'referral_bonus', points: amount, state: 'done' };
    case 'carried_forward':
      // Debits the account when what it replaced summed below zero (a reversal after spending).
      return { ...base, kind: 'carried_forward', points: r.credit_account_id === accountId ? amount : -amount, state: 'done' };
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
    // A release's reference is its credit's id: the credit names the wall and transaction.
    const rows: StatementRow[] = await m.query(
      `SELECT t.seq::text AS seq, t.id, t.kind, t.amount, t.created_at, t.held_until, t.credit_account_id,
              CASE WHEN t.kind = 'hold_release' THEN c.reference ELSE t.reference END AS reference,
              l.reference AS linked_reference,
              (SELECT s.kind FROM ledger_transfers s WHERE s.linked_id = t.id) AS settled_by,
              (t.held_until IS NOT NULL AND EXISTS (SELECT 1 FROM ledger_transfers r WHERE r.kind = 'hold_release' AND r.reference = t.id::text)) AS released,
              (t.kind = 'offerwall_reversal' AND EXISTS (SELECT 1 FROM ledger_entries e WHERE e.transfer_id = t.id AND e.layer = 'held')) AS held_layer,
              COALESCE(d.offer_name, cc.offer_name) AS offer_name, d.reversal_reason, cc.wall AS claim_wall
         FROM ledger_transfers t
         LEFT JOIN ledger_transfers l ON l.id = t.linked_id
         LEFT JOIN ledger_transfers c ON c.id = CASE WHEN t.kind = 'hold_release' THEN t.reference::uuid END
         LEFT JOIN offerwall_credit_details d ON d.credit_id = CASE WHEN t.kind = 'offerwall_credit' THEN t.id
                                                                    WHEN t.kind = 'offerwall_reversal' THEN t.linked_id
                                                                    WHEN t.kind = 'hold_release' THEN c.id END
         LEFT JOIN credit_claims cc ON t.kind = 'claim_credit' AND cc.transfer_id = t.id
        WHERE (t.debit_account_id = $1 OR t.credit_account_id = $1)
          AND ($2::bigint IS NULL OR t.seq < $2::bigint)
        ORDER BY t.seq DESC
        LIMIT $3`,
      [account.id, opts.before ?? null, opts.limit + 1],
    );
    const page = rows.slice(0, opts.limit);
    return { entries: page.map((r) => toEntry(r, account.id)), nextCursor: rows.length > opts.limit ? page[page.length - 1].seq : null };
  }
}
