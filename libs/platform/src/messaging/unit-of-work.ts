import { randomUUID } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import { DataSource, EntityManager } from 'typeorm';
import type { EventDefinition, EventEnvelope, EventPayload } from '@esim/contracts';
import { RequestContext } from '../context/request-context';
import { traceHeaders, TraceHeaders } from '../observability/tracing';
import { PreparedStatement } from '../persistence/prepared-statement';

/** A database transaction that can also announce events; they are stored with the change. */
export class Tx {
  readonly staged: EventEnvelope[] = [];
  /** The trace context each staged event was announced in, by event id: the relay publishes it as headers. */
  readonly headers = new Map<string, TraceHeaders>();

  constructor(readonly manager: EntityManager) {}

  publish<D extends EventDefinition>(def: D, payload: EventPayload<D>): EventEnvelope<EventPayload<D>> {
    const { envelope, headers } = newEnvelope(def, payload);
    this.staged.push(envelope);
    if (headers) this.headers.set(envelope.id, headers);
    return envelope;
  }
}

/**
 * A new event's id: a UUIDv7, time-ordered, so the outbox's and the consumers' inbox indexes on it
 * take each new id at their right edge instead of on a random page. With random (v4) ids, writing a
 * batch of postbacks dirtied a page per event in each of those indexes, and after every checkpoint
 * each such page went whole into the WAL (EXPLAIN (ANALYZE, WAL) of the ingestion's batch
 * statement shows it).
 */
export const eventId = (): string => uuidv7();

/**
 * An event as the outbox stores it: its envelope (the payload checked against the contract) and
 * the trace context it was announced in, if traced. Tx.publish stages these; a write that is one
 * statement of its own inserts them itself (UnitOfWork.outboxWritten).
 */
export function newEnvelope<D extends EventDefinition>(def: D, payload: EventPayload<D>): { envelope: EventEnvelope<EventPayload<D>>; headers?: TraceHeaders } {
  const ctx = RequestContext.current();
  const envelope: EventEnvelope<EventPayload<D>> = {
    id: eventId(),
    type: def.routingKey,
    occurredAt: new Date().toISOString(),
    correlationId: ctx?.correlationId ?? randomUUID(),
    causationId: ctx?.causationId ?? null,
    payload: def.schema.parse(payload) as EventPayload<D>,
  };
  return { envelope, headers: traceHeaders() };
}

export interface OutboxWaker {
  wake(): void;
}

/** Runs work in one transaction and writes the events it announced into the outbox before commit. */
export class UnitOfWork {
  constructor(
    private readonly dataSource: DataSource,
    private readonly relay: OutboxWaker,
  ) {}

  async run<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    let staged = 0;
    const result = await this.dataSource.transaction(async (manager) => {
      const tx = new Tx(manager);
      const value = await work(tx);
      await writeOutbox(manager, tx.staged, tx.headers);
      staged = tx.staged.length;
      return value;
    });
    if (staged > 0) this.relay.wake();
    return result;
  }

  /**
   * For a write that is one statement of its own, inserting its events (newEnvelope) into
   * outbox_events in that same statement, so they commit or vanish with it: call once it has
   * committed, so the relay publishes them now instead of at its next poll.
   */
  outboxWritten(): void {
    this.relay.wake();
  }
}

const INSERT_OUTBOX = new PreparedStatement(`INSERT INTO outbox_events (id, routing_key, envelope, headers)
  SELECT * FROM unnest($1::uuid[], $2::text[], $3::jsonb[], $4::jsonb[])`);

/** Stores the events (and, when traced, the trace context to publish them with) in the outbox. */
export async function writeOutbox(manager: EntityManager, envelopes: EventEnvelope[], headers?: ReadonlyMap<string, TraceHeaders>): Promise<void> {
  if (envelopes.length === 0) return;
  await INSERT_OUTBOX.run(manager, [
    envelopes.map((e) => e.id),
    envelopes.map((e) => e.type),
    envelopes.map((e) => JSON.stringify(e)),
    envelopes.map((e) => {
      const h = headers?.get(e.id);
      return h ? JSON.stringify(h) : null;
    }),
  ]);
}
