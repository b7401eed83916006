import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { OfferwallId, PaymentsRefusal, PostbackOutcome, RewardsRefusal } from '@esim/contracts';
import { PostbackDelivery } from './postback-delivery';
import { WebhookTransaction } from './webhook-transaction.entity';

export interface DeliveryRecord {
  delivery: PostbackDelivery;
  transactionId: string | null;
  userId: string | null;
  /** Points credited or taken back; for a refused delivery, the amount it claimed if readable. */
  amount: number | null;
  status: PostbackOutcome;
}

/** An accepted credit or reversal, recorded under the transaction it credits or takes back. */
export interface AcceptedRecord extends Omit<DeliveryRecord, 'status' | 'transactionId' | 'userId'> {
  transactionId: string;
  userId: string;
  action: 'credit' | 'reverse';
}

const INT_MAX = 2_147_483_647;
/** Headers that are ours, not the provider's: never stored (the gateway does not forward them either). */
const PRIVATE_HEADERS = new Set(['cookie', 'authorization', 'proxy-authorization']);
const key = (provider: string, transactionId: string | null, action: string | null) => `${provider}\u0000${transactionId}\u0000${action}`;

/** Postgres text and jsonb cannot hold U+0000: a delivery carrying it is stored with U+FFFD instead. */
function storable<T>(value: T): T {
  if (typeof value === 'string') return value.replaceAll('\u0000', '\uFFFD') as T;
  if (Array.isArray(value)) return value.map(storable) as T;
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [storable(k), storable(v)])) as T;
  return value;
}

function row(r: Omit<DeliveryRecord, 'status'>, status: PostbackOutcome, action: WebhookTransaction['action']): Partial<WebhookTransaction> {
  const { method, fullUrl, query, body, headers, sourceIp, provider } = r.delivery;
  const kept = Object.fromEntries(Object.entries(headers).filter(([name]) => !PRIVATE_HEADERS.has(name)));
  return {
    provider,
    transactionId: storable(r.transactionId),
    action,
    userId: r.userId,
    status,
    amountMb: r.amount !== null && Number.isSafeInteger(r.amount) && Math.abs(r.amount) <= INT_MAX ? r.amount : null,
    rawPayload: storable({ method, url: fullUrl, query, body, headers: kept }),
    sourceIp,
  };
}

/** Columns of a batch of rows, in INSERT_ROWS' order: one array a column, one statement a batch. */
function columns(rows: Array<Partial<WebhookTransaction>>): unknown[][] {
  return [
    rows.map((r) => r.provider),
    rows.map((r) => r.transactionId),
    rows.map((r) => r.action),
    rows.map((r) => r.userId),
    rows.map((r) => r.status),
    rows.map((r) => r.amountMb),
    rows.map((r) => JSON.stringify(r.rawPayload)),
    rows.map((r) => r.sourceIp),
  ];
}

/**
 * The insert of a batch of deliveries. Written as SQL over unnest'ed column arrays, not through the
 * entity's query builder: on the postback path (bench/postbacks.bench.mjs) TypeORM's per-row
 * parameter handling was a fifth of this service's time, while this statement costs the same for
 * one row or five hundred. The entity (webhook-transaction.entity.ts) stays the table's definition
 * and serves every other read and write.
 */
const INSERT_ROWS = `INSERT INTO webhook_transactions (provider, transaction_id, action, user_id, status, amount_mb, raw_payload, source_ip)
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::uuid[], $5::text[], $6::int[], $7::jsonb[], $8::text[])`;
/** The same for accepted deliveries, in the arrays' order; a transaction accepted before is skipped (the partial unique index). */
const ACCEPT_ROWS = `INSERT INTO webhook_transactions (provider, transaction_id, action, user_id, status, amount_mb, raw_payload, source_ip)
  SELECT provider, transaction_id, action, user_id, status, amount_mb, raw_payload, source_ip
    FROM unnest($1::text[], $2::text[], $3::text[], $4::uuid[], $5::text[], $6::int[], $7::jsonb[], $8::text[])
         WITH ORDINALITY AS r(provider, transaction_id, action, user_id, status, amount_mb, raw_payload, source_ip, n)
   ORDER BY n
  ON CONFLICT DO NOTHING RETURNING id, provider, transaction_id, action`;

/** The webhook_transactions log: every delivery, whatever came of it. Each method writes many rows in one statement. */
@Injectable()
export class WebhookTransactions {
  /** Records deliveries that are not handed to rewards. */
  async record(m: EntityManager, records: DeliveryRecord[]): Promise<void> {
    if (records.length === 0) return;
    await m.query(INSERT_ROWS, columns(records.map((r) => row(r, r.status, null))));
  }

  /**
   * Records accepted credits or reversals; answers each one's id, or null when its provider
   * transaction was accepted before, or earlier in `records` (the partial unique index decides,
   * also between concurrent transactions).
   */
  async accept(m: EntityManager, records: AcceptedRecord[]): Promise<Array<string | null>> {
    if (records.length === 0) return [];
    // Inserted in key order: concurrent batches then take the unique index's locks in the same order (no deadlock).
    const ordered = [...records].sort((a, b) => {
      const [x, y] = [key(a.delivery.provider, a.transactionId, a.action), key(b.delivery.provider, b.transactionId, b.action)];
      return x < y ? -1 : x > y ? 1 : 0;
    });
    const returned: Array<{ id: string; provider: string; transaction_id: string; action: string }> = await m.query(
      ACCEPT_ROWS,
      columns(ordered.map((r) => row(r, 'accepted', r.action))),
    );
    const inserted = new Map(returned.map((r) => [key(r.provider, r.transaction_id, r.action), r.id]));
    return records.map((r) => {
      const k = key(r.delivery.provider, storable(r.transactionId), r.action);
      const id = inserted.get(k) ?? null;
      inserted.delete(k); // the same transaction twice in one batch: the first one has it
      return id;
    });
  }

  /** The user each of these provider transactions was credited to (accepted credits only). */
  async acceptedCredits(m: EntityManager, transactions: Array<{ provider: OfferwallId; transactionId: string }>): Promise<Map<string, string>> {
    if (transactions.length === 0) return new Map();
    const rows: Array<{ provider: string; transaction_id: string; user_id: string }> = await m
      .getRepository(WebhookTransaction)
      .createQueryBuilder('w')
      .select(['w.provider AS provider', 'w.transaction_id AS transaction_id', 'w.user_id AS user_id'])
      .where(`w.action = 'credit'`)
      .andWhere('(w.provider, w.transaction_id) IN (SELECT * FROM unnest(CAST(:providers AS text[]), CAST(:ids AS text[])))', {
        providers: transactions.map((t) => t.provider),
        ids: transactions.map((t) => t.transactionId),
      })
      .getRawMany();
    return new Map(rows.map((r) => [key(r.provider, r.transaction_id, 'credit'), r.user_id]));
  }

  /**
   * The service an accepted delivery was handed to could not apply it (rewards: a closed account,
   * an unknown credit; payments: no purchase for the PaymentIntent, an intent that does not pay its
   * purchase): its outcome, and payments' reason, are what operators see.
   */
  async refusedByConsumer(
    m: EntityManager,
    deliveryId: string,
    refusal: { outcome: RewardsRefusal | PaymentsRefusal; at: Date; reason?: string },
  ): Promise<void> {
    await m.getRepository(WebhookTransaction).update(
      { id: deliveryId },
      { status: refusal.outcome, processedAt: refusal.at, ...(refusal.reason !== undefined ? { error: storable(refusal.reason) } : {}) },
    );
  }

  /** A deleted user's raw payloads carry their IP address: only the outcome and amounts remain. */
  async erasePayloadsOf(m: EntityManager, userId: string): Promise<void> {
    await m.getRepository(WebhookTransaction).update({ userId }, { rawPayload: { erased: 'account deleted' } });
  }

  /** The credits a wall paid a user, newest first, and whether each was reversed since (the sandbox wall's own view). */
  async paidTo(
    m: EntityManager,
    userId: string,
    provider: OfferwallId,
    limit: number,
  ): Promise<Array<{ transactionId: string; points: number; reversed: boolean }>> {
    const rows: Array<{ transaction_id: string; amount_mb: number; reversed: boolean }> = await m
      .getRepository(WebhookTransaction)
      .createQueryBuilder('c')
      .select(['c.transaction_id AS transaction_id', 'c.amount_mb AS amount_mb'])
      .addSelect(
        `EXISTS (SELECT 1 FROM webhook_transactions r WHERE r.provider = c.provider AND r.transaction_id = c.transaction_id AND r.action = 'reverse')`,
        'reversed',
      )
      .where({ userId, provider, action: 'credit' })
      .orderBy('c.created_at', 'DESC')
      .limit(limit)
      .getRawMany();
    return rows.map((r) => ({ transactionId: r.transaction_id, points: r.amount_mb, reversed: r.reversed }));
  }

  /** The key `acceptedCredits` answers under. */
  static creditKey(provider: OfferwallId, transactionId: string): string {
    return key(provider, transactionId, 'credit');
  }
}
