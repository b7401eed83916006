import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { EventEnvelope, PaymentsRefusal, PostbackOutcome, RewardsRefusal } from '@esim/contracts';
import { PreparedStatement, type TraceHeaders } from '@esim/platform';
import { boundedPayload } from '../refused-deliveries/bounded-payload';
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

const INT_MAX = 2_147_483_647;
/** Headers that are ours, not the provider's: never stored (the gateway does not forward them either). */
const PRIVATE_HEADERS = new Set(['cookie', 'authorization', 'proxy-authorization']);

/** Postgres text and jsonb cannot hold U+0000: a delivery carrying it is stored with U+FFFD instead. */
function storable<T>(value: T): T {
  if (typeof value === 'string') return value.replaceAll('\u0000', '\uFFFD') as T;
  if (Array.isArray(value)) return value.map(storable) as T;
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [storable(k), storable(v)])) as T;
  return value;
}

/** What a verified delivery for a user asks of the batch statement. */
export type DeliveryIntent = 'credit' | 'reverse' | 'ignore';

/** One delivery of a batch (RECORD_BATCH's input). */
export interface BatchDelivery {
  /** The delivery's row id, chosen here: an accepted one's event names it before the row exists. */
  id: string;
  record: Omit<DeliveryRecord, 'status'>;
  /** A refused delivery's outcome (then no intent). */
  status?: PostbackOutcome;
  /** A verified credit or reversal (or a 0-point credit, `ignore`): accepted unless the statement finds otherwise. */
  intent?: DeliveryIntent;
  /** The transaction an accepted credit or reversal is recorded under (the one it credits or takes back). */
  creditTransactionId?: string;
  /** Its place in the batch's event (AcceptedPostbacksEvent): a credit or reversal the event names if the statement accepts it. */
  item?: number;
}

/**
 * The one event announcing a batch's accepted deliveries (newEnvelope of OfferwallPostbacksAccepted),
 * naming every credit and reversal that may be accepted; the statement keeps, in its outbox row,
 * the ones it accepts.
 */
export interface AcceptedPostbacksEvent {
  envelope: EventEnvelope<{ postbacks: unknown[] }>;
  headers?: TraceHeaders;
}

/**
 * A whole batch of deliveries decided and recorded in ONE statement, committed on its own: the
 * registered users, credits (a transaction accepted before, or earlier in the batch, is a
 * duplicate: the partial unique index decides, also between concurrent batches), reversals of
 * credits to the same user (accepted before, or in this batch), one event of the accepted ones
 * into the outbox, and every other delivery with its outcome. One round trip and one commit a batch:
 * on the postback path (bench/postbacks.bench.mjs) a transaction of seven statements, each a
 * round trip, and the escaping of their array parameters cost more than the rows themselves.
 * Prepared: planning this statement cost more than running it for a batch of ten. The batch is one
 * jsonb parameter, parsed once: as json, each delivery's raw payload and event were parsed again
 * into their jsonb columns (100 deliveries: 10-14 ms -> 8-12 ms a statement, measured alternately).
 *
 * The inserts of accepted deliveries name their conflict target, the partial unique index: without
 * one, Postgres also probes the primary key before each row, for ids chosen here that never collide.
 *
 * Data-modifying CTEs all see the snapshot the statement started with, and each other only through
 * RETURNING: a reversal finds a credit of the same batch in `credits`, not in the table. Accepted
 * rows are inserted in key order, so concurrent batches take the unique index's locks in one
 * order (no deadlock). The event ($2, with every credit and reversal that might be accepted, in
 * the order `item` numbers them) is written with the accepted ones only, credits first, the order
 * rewards applies them in; with none accepted, no event.
 */
const RECORD_BATCH = new PreparedStatement<{ n: number; outcome: PostbackOutcome }>(`
WITH input AS (
  SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(
    n int, id uuid, provider text, transaction_id text, credit_transaction_id text, user_id uuid, amount_mb int,
    raw_payload jsonb, source_ip text, status text, intent text, item int)
),
registered AS (
  SELECT user_id FROM registered_users
   WHERE deleted_at IS NULL AND user_id IN (SELECT user_id FROM input WHERE intent IS NOT NULL)
),
credits AS (
  INSERT INTO webhook_transactions (id, provider, transaction_id, action, user_id, status, amount_mb, raw_payload, source_ip)
  SELECT id, provider, credit_transaction_id, 'credit', user_id, 'accepted', amount_mb, raw_payload, source_ip
    FROM input WHERE intent = 'credit' AND user_id IN (SELECT user_id FROM registered)
   ORDER BY provider, credit_transaction_id, n
  ON CONFLICT (provider, transaction_id, action) WHERE action IS NOT NULL DO NOTHING
  RETURNING id, provider, transaction_id, user_id
),
reversible AS (
  SELECT i.n FROM input i
   WHERE i.intent = 'reverse' AND i.user_id IN (SELECT user_id FROM registered)
     AND (EXISTS (SELECT 1 FROM webhook_transactions w
                   WHERE w.provider = i.provider AND w.transaction_id = i.credit_transaction_id AND w.action = 'credit' AND w.user_id = i.user_id)
          OR EXISTS (SELECT 1 FROM credits c WHERE c.provider = i.provider AND c.transaction_id = i.credit_transaction_id AND c.user_id = i.user_id))
),
reversals AS (
  INSERT INTO webhook_transactions (id, provider, transaction_id, action, user_id, status, amount_mb, raw_payload, source_ip)
  SELECT id, provider, credit_transaction_id, 'reverse', user_id, 'accepted', amount_mb, raw_payload, source_ip
    FROM input WHERE n IN (SELECT n FROM reversible)
   ORDER BY provider, credit_transaction_id, n
  ON CONFLICT (provider, transaction_id, action) WHERE action IS NOT NULL DO NOTHING
  RETURNING id
),
accepted AS (SELECT id FROM credits UNION ALL SELECT id FROM reversals),
outbox AS (
  INSERT INTO outbox_events (id, routing_key, envelope, headers)
  SELECT ($2::jsonb->>'id')::uuid, $2::jsonb->>'type', jsonb_set($2::jsonb, '{payload,postbacks}', a.postbacks), $3::jsonb
    FROM (SELECT jsonb_agg($2::jsonb->'payload'->'postbacks'->i.item ORDER BY i.intent = 'reverse', i.n) AS postbacks
            FROM input i WHERE i.id IN (SELECT id FROM accepted)) a
   WHERE a.postbacks IS NOT NULL
),
decided AS (
  SELECT i.*, CASE
      WHEN i.intent IS NULL THEN i.status
      WHEN i.id IN (SELECT id FROM accepted) THEN 'accepted'
      WHEN i.user_id NOT IN (SELECT user_id FROM registered) THEN 'rejected_unknown_user'
      WHEN i.intent = 'ignore' THEN 'ignored'
      WHEN i.intent = 'reverse' AND i.n NOT IN (SELECT n FROM reversible) THEN 'rejected_unknown_transaction'
      ELSE 'duplicate'
    END AS outcome
    FROM input i
),
others AS (
  INSERT INTO webhook_transactions (id, provider, transaction_id, action, user_id, status, amount_mb, raw_payload, source_ip)
  SELECT id, provider, transaction_id, NULL, user_id, outcome, amount_mb, raw_payload, source_ip FROM decided WHERE outcome <> 'accepted'
)
SELECT n, outcome FROM decided`);

/** The batch as RECORD_BATCH's one JSON parameter: one JSON.stringify, no per-element array escaping. */
function batchDocument(batch: readonly BatchDelivery[], clean: <T>(value: T) => T): string {
  return JSON.stringify(
    batch.map((b, n) => {
      const { method, fullUrl, query, body, headers, sourceIp, provider } = b.record.delivery;
      const kept = Object.fromEntries(Object.entries(headers).filter(([name]) => !PRIVATE_HEADERS.has(name)));
      const amount = b.record.amount;
      return {
        n,
        id: b.id,
        provider,
        transaction_id: clean(b.record.transactionId),
        credit_transaction_id: b.creditTransactionId === undefined ? null : clean(b.creditTransactionId),
        user_id: b.record.userId,
        amount_mb: amount !== null && Number.isSafeInteger(amount) && Math.abs(amount) <= INT_MAX ? amount : null,
        // A delivery refused before the statement came from anyone: its record is bounded.
        raw_payload: clean(b.status === undefined ? { method, url: fullUrl, query, body, headers: kept } : boundedPayload({ method, url: fullUrl, query, body, headers: kept })),
        source_ip: clean(sourceIp),
        status: b.status ?? null,
        intent: b.intent ?? null,
        item: b.item ?? null,
      };
    }),
  );
}

/** The webhook_transactions log: every delivery, whatever came of it. Each method writes many rows in one statement. */
@Injectable()
export class WebhookTransactions {
  /**
   * Decides and records a batch of offer-wall deliveries in one statement (RECORD_BATCH), committed
   * on its own; answers each delivery's outcome, in order. The event of the accepted ones is in
   * the outbox when this answers (then UnitOfWork.outboxWritten).
   */
  async recordBatch(db: DataSource, batch: readonly BatchDelivery[], event?: AcceptedPostbacksEvent): Promise<PostbackOutcome[]> {
    if (batch.length === 0) return [];
    let document = batchDocument(batch, (v) => v);
    // JSON writes U+0000 as \u0000, which Postgres refuses in text and jsonb. It is rare enough that
    // looking for it in the whole document costs less than cleaning every value of every delivery
    // (a stored backslash followed by "u0000" matches too: the clean pass then changes nothing).
    if (document.includes('\\u0000')) document = batchDocument(batch, storable);
    let envelope = event ? JSON.stringify(event.envelope) : null;
    if (envelope?.includes('\\u0000')) envelope = JSON.stringify(storable(event!.envelope));
    const rows = await RECORD_BATCH.run(db, [document, envelope, event?.headers ? JSON.stringify(event.headers) : null]);
    const outcomes: PostbackOutcome[] = new Array(batch.length);
    for (const r of rows) outcomes[r.n] = r.outcome;
    return outcomes;
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
}
