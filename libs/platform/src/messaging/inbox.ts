import type { EventEnvelope } from '@esim/contracts';
import type Redis from 'ioredis';
import { DataSource, EntityManager } from 'typeorm';
import { PreparedStatement } from '../persistence/prepared-statement';
import { OutboxWaker, Tx, writeOutbox } from './unit-of-work';

const INSERT_INBOX_ROWS = new PreparedStatement<{ event_id: string }>(`INSERT INTO inbox_events (consumer, event_id, event_type)
  SELECT $1, id, type FROM unnest($2::uuid[], $3::text[]) AS e(id, type)
  ON CONFLICT DO NOTHING RETURNING event_id`);

/**
 * Remembers which events a consumer applied, so that a redelivered or republished event takes
 * effect once. `apply` runs `work` unless the event was applied before, and says which.
 */
export interface Inbox {
  apply(consumer: string, envelope: EventEnvelope, work: (tx: Tx) => Promise<void>): Promise<boolean>;
  /** Several events in one transaction: `work` gets those not applied before; answers, for each, whether it was applied now. */
  applyAll?(consumer: string, envelopes: EventEnvelope[], work: (tx: Tx, fresh: EventEnvelope[]) => Promise<void>): Promise<boolean[]>;
  /** Whether the store answers now (the consumer holds deliveries that failed on it until it does). */
  reachable?(): Promise<boolean>;
}

/**
 * The inbox of a service with a database: the inbox row, the handler's writes and the events it
 * announces commit in one transaction, so "applied" and "recorded as applied" cannot diverge.
 */
export class PostgresInbox implements Inbox {
  constructor(
    private readonly dataSource: DataSource,
    private readonly relay: OutboxWaker,
  ) {}

  reachable(): Promise<boolean> {
    return this.dataSource.query('SELECT 1').then(
      () => true,
      () => false,
    );
  }

  async apply(consumer: string, envelope: EventEnvelope, work: (tx: Tx) => Promise<void>): Promise<boolean> {
    let staged = 0;
    const applied = await this.dataSource.transaction(async (manager) => {
      const inserted: unknown[] = await manager.query(
        `INSERT INTO inbox_events (consumer, event_id, event_type) VALUES ($1, $2, $3)
         ON CONFLICT DO NOTHING RETURNING event_id`,
        [consumer, envelope.id, envelope.type],
      );
      if (inserted.length === 0) return false;
      const tx = new Tx(manager);
      await work(tx);
      await writeOutbox(manager, tx.staged, tx.headers);
      staged = tx.staged.length;
      return true;
    });
    if (staged > 0) this.relay.wake();
    return applied;
  }

  async applyAll(consumer: string, envelopes: EventEnvelope[], work: (tx: Tx, fresh: EventEnvelope[]) => Promise<void>): Promise<boolean[]> {
    let staged = 0;
    const applied = await this.dataSource.transaction(async (manager) => {
      const inserted = await INSERT_INBOX_ROWS.run(manager, [consumer, envelopes.map((e) => e.id), envelopes.map((e) => e.type)]);
      const fresh = new Set(inserted.map((r) => r.event_id));
      // The same event twice in one group: the first one is applied.
      const mine = envelopes.map((e) => fresh.delete(e.id));
      const tx = new Tx(manager);
      if (mine.some(Boolean)) await work(tx, envelopes.filter((_, i) => mine[i]));
      await writeOutbox(manager, tx.staged, tx.headers);
      staged = tx.staged.length;
      return mine;
    });
    if (staged > 0) this.relay.wake();
    return applied;
  }
}

const noDatabase = new Proxy({} as EntityManager, {
  get() {
    throw new Error('this process has no database (the gateway): its event handlers act on Redis');
  },
});

/**
 * The inbox of the gateway, which has no database: one Redis key per applied event, written
 * after the handler succeeded and kept for `ttlSeconds` (far longer than any redelivery takes).
 * No transaction spans the handler's Redis writes and the key, so a crash between them applies
 * the event again on redelivery: gateway handlers must be idempotent (ending sessions is).
 */
export class RedisInbox implements Inbox {
  constructor(
    private readonly redis: Redis,
    private readonly ttlSeconds: number,
  ) {}

  async apply(consumer: string, envelope: EventEnvelope, work: (tx: Tx) => Promise<void>): Promise<boolean> {
    const key = `inbox:${consumer}:${envelope.id}`;
    if ((await this.redis.exists(key)) === 1) return false;
    const tx = new Tx(noDatabase);
    await work(tx);
    if (tx.staged.length > 0) throw new Error(`${envelope.type}: a handler without a database cannot publish events (it has no outbox)`);
    await this.redis.set(key, envelope.type, 'EX', this.ttlSeconds);
    return true;
  }

  /**
   * A group with two Redis round trips of the inbox's own, however large: one MGET finds the
   * events applied before, `work` applies the others, one pipeline sets their keys (as `apply`
   * does, with the same TTL). As in `apply`, nothing is recorded unless `work` succeeded, and no
   * transaction spans `work` and the keys: a crash after `work`, or a key write that fails, leaves
   * some or none of the group's keys set, and the redelivery applies those events again (a failed
   * group is applied again one event at a time by the consumer, the same). For the gateway's
   * handlers that is a repeated notice at worst, as with one event: their view writes are
   * versioned, so a repeated one changes nothing, and the rest are notices on the open pages.
   */
  async applyAll(consumer: string, envelopes: EventEnvelope[], work: (tx: Tx, fresh: EventEnvelope[]) => Promise<void>): Promise<boolean[]> {
    const keys = envelopes.map((e) => `inbox:${consumer}:${e.id}`);
    const stored = await this.redis.mget(keys);
    // The same event twice in one group: the first one is applied.
    const taken = new Set<string>();
    const mine = envelopes.map((e, i) => {
      if (stored[i] !== null || taken.has(e.id)) return false;
      taken.add(e.id);
      return true;
    });
    if (!mine.some(Boolean)) return mine;
    const tx = new Tx(noDatabase);
    const fresh = envelopes.filter((_, i) => mine[i]);
    await work(tx, fresh);
    if (tx.staged.length > 0) throw new Error(`${fresh[0].type}: a handler without a database cannot publish events (it has no outbox)`);
    const pipeline = this.redis.pipeline();
    for (const e of fresh) pipeline.set(`inbox:${consumer}:${e.id}`, e.type, 'EX', this.ttlSeconds);
    const written = (await pipeline.exec()) ?? [];
    const failed = written.find(([err]) => err);
    if (failed) throw failed[0];
    return mine;
  }
}
