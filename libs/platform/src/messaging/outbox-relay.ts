import { Logger } from '@nestjs/common';
import { context, ROOT_CONTEXT, trace, Tracer } from '@opentelemetry/api';
import type { ChannelWrapper } from 'amqp-connection-manager';
import type { ConfirmChannel, ConsumeMessage } from 'amqplib';
import { DataSource, EntityManager } from 'typeorm';
import type { PlatformMetrics } from '../observability/platform-metrics';
import { contextFrom, failed, serviceTracer, SpanKind, traceHeaders, tracingEnabled } from '../observability/tracing';
import { AmqpConnection } from './amqp-connection';
import { EVENT_BATCH } from './event-batch';
import { PreparedStatement } from '../persistence/prepared-statement';
import { OutboxWaker } from './unit-of-work';

export interface OutboxRelayOptions {
  exchange: string;
  pollMs: number;
  /** Published rows are deleted after this long: some events carry a code or a link in clear. */
  retentionHours?: number;
  /** Rows one statement of a prune deletes at most (PRUNE_BATCH). */
  pruneBatch?: number;
  batchSize?: number;
  publishTimeoutMs?: number;
  /**
   * Tries before an event no queue is bound to is parked: set aside with `parked_at`, logged
   * with its type, and no longer read by the relay (default 10, about 17 minutes of backoff).
   */
  maxAttempts?: number;
  /** Counts what is published (outbox_published_events_total). */
  metrics?: PlatformMetrics;
  /** Names the relay's publish spans when tracing is on. */
  service?: string;
}

/** An event set aside because no queue was bound to it; operators read these (see docs/architecture.md). */
export interface ParkedEvent {
  id: string;
  routingKey: string;
  attempts: number;
  lastError: string | null;
  createdAt: Date;
  parkedAt: Date;
}

interface OutboxRow {
  id: string;
  routing_key: string;
  /** The envelope as JSON text, sent as it is: parsing it to serialize it again cost every pass. */
  body: string;
  correlation_id: string;
  attempts: number;
  headers: Record<string, string> | null;
}

/** Longest wait before a returned (unroutable) event is tried again. */
const MAX_BACKOFF_SECONDS = 3600;
const DEFAULT_MAX_ATTEMPTS = 10;

/**
 * The relay's one read per pass. Parked and published rows are outside the partial index
 * `outbox_events_due` (see messaging-tables.migration.ts), so this work does not grow with them.
 */
export const CLAIM_DUE_EVENTS_SQL = `SELECT id, routing_key, envelope::text AS body, envelope->>'correlationId' AS correlation_id, attempts, headers FROM outbox_events
  WHERE published_at IS NULL AND parked_at IS NULL AND available_at <= now()
  ORDER BY seq LIMIT $1 FOR UPDATE SKIP LOCKED`;
const CLAIM_DUE_EVENTS = new PreparedStatement<OutboxRow>(CLAIM_DUE_EVENTS_SQL);
const MARK_PUBLISHED = new PreparedStatement('UPDATE outbox_events SET published_at = now(), attempts = attempts + 1 WHERE id = ANY($1)');
const PRUNE_EVERY_MS = 10 * 60 * 1000;
/**
 * A prune deletes in statements of at most this many rows, each committed on its own: a day of
 * events at the postback rate of bench/postbacks.bench.mjs is millions of rows, and one statement
 * deleting them all would hold its WAL, locks and I/O for seconds while the service answers.
 */
const PRUNE_BATCH = 1000;
/**
 * The oldest published rows past the retention, found through `outbox_events_published`
 * (OutboxPublishedIndex1732060800003): without that index every prune read the whole table, every
 * ten minutes, whether or not a row was old enough.
 */
const PRUNE_SOME = `DELETE FROM outbox_events WHERE id IN (
  SELECT id FROM outbox_events WHERE published_at < now() - make_interval(hours => $1) ORDER BY published_at LIMIT $2)`;

/**
 * Publishes outbox rows with publisher confirms and marks them only after the broker's ack.
 * Rows are claimed with FOR UPDATE SKIP LOCKED, so several replicas can relay side by side.
 * A crash between publish and mark republishes the event; consumers' inboxes absorb that.
 */
export class OutboxRelay implements OutboxWaker {
  private readonly log = new Logger('OutboxRelay');
  private readonly channel: ChannelWrapper;
  private readonly returned = new Set<string>();
  private timer?: NodeJS.Timeout;
  private pruneTimer?: NodeJS.Timeout;
  private draining?: Promise<void>;
  private again = false;
  private stopped = true;
  private readonly tracer: Tracer;

  constructor(
    private readonly dataSource: DataSource,
    private readonly connection: AmqpConnection,
    private readonly opts: OutboxRelayOptions,
  ) {
    this.tracer = serviceTracer(opts.service ?? 'outbox-relay');
    this.channel = connection.manager.createChannel({
      confirm: true,
      json: false,
      publishTimeout: opts.publishTimeoutMs ?? 10_000,
      setup: async (ch: ConfirmChannel) => {
        connection.watch(ch, 'outbox relay');
        await ch.assertExchange(opts.exchange, 'topic', { durable: true });
        ch.on('return', (msg: ConsumeMessage) => {
          if (msg.properties.messageId) this.returned.add(msg.properties.messageId);
        });
      },
    });
    this.channel.on('error', (err: Error) => this.log.error(`outbox relay channel: ${err.message}`));
    // While the broker was away, passes published nothing and rows waited: send them as soon as
    // the channel is set up again (after every reconnection), not at the next fallback poll.
    this.channel.on('connect', () => this.wake());
  }

  start(): void {
    this.stopped = false;
    this.timer = setInterval(() => this.wake(), this.opts.pollMs);
    this.pruneTimer = setInterval(() => void this.prune(), PRUNE_EVERY_MS);
    this.wake();
    void this.reportParked();
  }

  /** Events set aside because no queue was bound to them, oldest first. */
  async parked(limit = 100): Promise<ParkedEvent[]> {
    const rows: { id: string; routing_key: string; attempts: number; last_error: string | null; created_at: Date; parked_at: Date }[] = await this.dataSource.query(
      `SELECT id, routing_key, attempts, last_error, created_at, parked_at FROM outbox_events
        WHERE parked_at IS NOT NULL ORDER BY parked_at LIMIT $1`,
      [limit],
    );
    return rows.map((r) => ({ id: r.id, routingKey: r.routing_key, attempts: r.attempts, lastError: r.last_error, createdAt: r.created_at, parkedAt: r.parked_at }));
  }

  /** At start-up, says once how many events wait parked, by type, so they are not forgotten. */
  private async reportParked(): Promise<void> {
    try {
      const counts: { routing_key: string; n: number }[] = await this.dataSource.query(
        'SELECT routing_key, count(*)::int AS n FROM outbox_events WHERE parked_at IS NOT NULL GROUP BY routing_key ORDER BY routing_key',
      );
      if (counts.length > 0) {
        this.log.warn(`parked events in the outbox (no queue was bound to them): ${counts.map((c) => `${c.routing_key} × ${c.n}`).join(', ')}`);
      }
    } catch (err) {
      this.log.warn(`could not count parked events: ${(err as Error).message}`);
    }
  }

  /**
   * Deletes published rows older than the retention, oldest first, in statements of at most
   * `pruneBatch` rows until none is left; unpublished ones are never touched. Answers how many.
   */
  async prune(): Promise<number> {
    const batch = this.opts.pruneBatch ?? PRUNE_BATCH;
    let total = 0;
    try {
      for (;;) {
        const [, deleted] = await this.dataSource.query(PRUNE_SOME, [this.opts.retentionHours ?? 24, batch]);
        total += Number(deleted ?? 0);
        if (Number(deleted ?? 0) < batch) return total;
      }
    } catch (err) {
      this.log.warn(`outbox prune failed: ${(err as Error).message}`);
      return total;
    }
  }

  /** Asks for a drain soon; calls while one runs coalesce into one more pass. */
  wake(): void {
    if (this.stopped) return;
    if (this.draining) {
      this.again = true;
      return;
    }
    // Not part of the trace of whichever request woke it: a pass publishes events of many traces.
    this.draining = context.with(ROOT_CONTEXT, () => this.drainLoop()).finally(() => {
      this.draining = undefined;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
  }

  /** Publishes everything due now; resolves when the outbox has nothing left to send. */
  async drain(): Promise<void> {
    while ((await this.publishBatch()) > 0) {
      /* keep going */
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    if (this.pruneTimer) clearInterval(this.pruneTimer);
    await this.draining;
    await this.channel.close();
  }

  private async drainLoop(): Promise<void> {
    try {
      await this.drain();
    } catch (err) {
      this.log.warn(`outbox relay pass failed, will retry: ${(err as Error).message}`);
    }
  }

  private async publishBatch(): Promise<number> {
    // While the broker is unreachable, rows simply wait in the outbox; the poll retries.
    if (!this.connection.isConnected()) return 0;
    return this.dataSource.transaction(async (m) => {
      const rows = await CLAIM_DUE_EVENTS.run(m, [this.opts.batchSize ?? 100]);
      if (rows.length === 0) return 0;
      // One AMQP message per routing key in this pass (src/messaging/event-batch.ts says why).
      // Order across routing keys was never promised: consumers apply up to their prefetch at once.
      const messages = EVENT_BATCH.pack(rows, (r) => r.routing_key, (r) => Buffer.byteLength(r.body));
      await Promise.all(messages.map((group) => this.publish(group)));
      // A returned message is unroutable as a whole: all its rows share the routing key.
      const unroutable = new Set(messages.filter((group) => this.returned.delete(group[0].id)).flat());
      const routed = rows.filter((r) => !unroutable.has(r));
      const published = routed.map((r) => r.id);
      for (const r of routed) this.opts.metrics?.published.inc({ event: r.routing_key });
      if (published.length > 0) {
        await MARK_PUBLISHED.run(m, [published]);
      }
      if (unroutable.size > 0) await this.backOffOrPark(m, [...unroutable]);
      return published.length;
    });
  }

  /**
   * Publishes events of one routing key as one message, with publisher confirms: a single event
   * exactly as it always was (its envelope as the body, its stored headers), several as a batch
   * (EVENT_BATCH). The broker's message id is the first event's id; a `return` names that, and
   * the whole message is then unroutable.
   *
   * When traced, each event's publish is a producer span in the trace it was announced in. A
   * message has one set of headers, so a batch carries the first event's stored headers and
   * trace context: consumers continue the first event's trace, and the others' traces end at
   * their publish span. Untraced (the default), no event has headers to lose.
   */
  private async publish(rows: OutboxRow[]): Promise<void> {
    const first = rows[0];
    const spans = rows.map((row) => {
      const parent = tracingEnabled() && row.headers ? contextFrom(row.headers) : undefined;
      const span =
        parent &&
        this.tracer.startSpan(
          `${row.routing_key} publish`,
          { kind: SpanKind.PRODUCER, attributes: { 'messaging.system': 'rabbitmq', 'messaging.destination.name': this.opts.exchange, 'messaging.message.id': row.id, correlation_id: row.correlation_id, 'messaging.batch.message_count': rows.length } },
          parent,
        );
      return span ? { parent: parent!, span } : undefined;
    });
    const traced = spans[0];
    const stored = traced ? { ...first.headers, ...traceHeaders(trace.setSpan(traced.parent, traced.span)) } : (first.headers ?? undefined);
    const batched = rows.length > 1;
    const body = batched ? `[${rows.map((r) => r.body).join(',')}]` : first.body;
    try {
      await this.channel.publish(this.opts.exchange, first.routing_key, Buffer.from(body), {
        persistent: true,
        mandatory: true,
        contentType: batched ? EVENT_BATCH.contentType : 'application/json',
        messageId: first.id,
        type: first.routing_key,
        // A batch's events have correlation ids of their own, in their envelopes.
        correlationId: batched ? undefined : first.correlation_id,
        timestamp: Math.floor(Date.now() / 1000),
        headers: batched ? { ...stored, [EVENT_BATCH.countHeader]: rows.length } : stored,
      });
    } catch (err) {
      for (const s of spans) failed(s?.span, err);
      throw err;
    } finally {
      for (const s of spans) s?.span.end();
    }
  }

  /**
   * No queue is bound for these (a consumer that never started, or none declared): retry with
   * backoff, and park each one after `maxAttempts` tries so that it stops costing every pass.
   */
  private async backOffOrPark(m: EntityManager, rows: OutboxRow[]): Promise<void> {
    const maxAttempts = this.opts.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
    // An UPDATE through TypeORM answers [rows, affected].
    const [updated]: [{ id: string; routing_key: string; attempts: number; parked_at: Date | null }[], number] = await m.query(
      `UPDATE outbox_events SET attempts = attempts + 1, last_error = 'unroutable: no queue bound',
              parked_at = CASE WHEN attempts + 1 >= $3 THEN now() END,
              available_at = now() + make_interval(secs => LEAST(power(2, attempts), $2))
        WHERE id = ANY($1) RETURNING id, routing_key, attempts, parked_at`,
      [rows.map((r) => r.id), MAX_BACKOFF_SECONDS, maxAttempts],
    );
    const parked = updated.filter((r) => r.parked_at !== null);
    const retried = rows.length - parked.length;
    if (retried > 0) this.log.warn(`${retried} event(s) had no queue bound; they stay in the outbox and are retried`);
    for (const p of parked) {
      this.log.error(`parked ${p.routing_key} ${p.id} after ${p.attempts} tries: no queue is bound to it (see docs/architecture.md, "Parked events")`);
    }
  }
}
