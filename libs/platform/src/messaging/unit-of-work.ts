import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import type { EventDefinition, EventEnvelope, EventPayload } from '@esim/contracts';
import { RequestContext } from '../context/request-context';
import { traceHeaders, TraceHeaders } from '../observability/tracing';

/** A database transaction that can also announce events; they are stored with the change. */
export class Tx {
  readonly staged: EventEnvelope[] = [];
  /** The trace context each staged event was announced in, by event id: the relay publishes it as headers. */
  readonly headers = new Map<string, TraceHeaders>();

  constructor(readonly manager: EntityManager) {}

  publish<D extends EventDefinition>(def: D, payload: EventPayload<D>): EventEnvelope<EventPayload<D>> {
    const ctx = RequestContext.current();
    const envelope: EventEnvelope<EventPayload<D>> = {
      id: randomUUID(),
      type: def.routingKey,
      occurredAt: new Date().toISOString(),
      correlationId: ctx?.correlationId ?? randomUUID(),
      causationId: ctx?.causationId ?? null,
      payload: def.schema.parse(payload) as EventPayload<D>,
    };
    this.staged.push(envelope);
    const headers = traceHeaders();
    if (headers) this.headers.set(envelope.id, headers);
    return envelope;
  }
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
}

/** Stores the events (and, when traced, the trace context to publish them with) in the outbox. */
export async function writeOutbox(manager: EntityManager, envelopes: EventEnvelope[], headers?: ReadonlyMap<string, TraceHeaders>): Promise<void> {
  if (envelopes.length === 0) return;
  await manager.query(
    `INSERT INTO outbox_events (id, routing_key, envelope, headers)
     SELECT * FROM unnest($1::uuid[], $2::text[], $3::jsonb[], $4::jsonb[])`,
    [
      envelopes.map((e) => e.id),
      envelopes.map((e) => e.type),
      envelopes.map((e) => JSON.stringify(e)),
      envelopes.map((e) => {
        const h = headers?.get(e.id);
        return h ? JSON.stringify(h) : null;
      }),
    ],
  );
}
