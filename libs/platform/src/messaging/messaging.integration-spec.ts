import { Logger } from '@nestjs/common';
import amqplib from 'amqplib';
import { DataSource, MigrationInterface, QueryRunner } from 'typeorm';
import { z } from 'zod';
import { defineEvent } from '@esim/contracts';
import { TEST_AMQP_URL, TEST_DATABASE_URL, TcpProxy, TestNamespace, waitFor } from '@esim/testing';
import { openDataSource } from '../persistence/data-source';
import { AmqpConnection } from './amqp-connection';
import { EventConsumer } from './event-consumer';
import { EventHandler } from './event-handler';
import { PostgresInbox } from './inbox';
import { CLAIM_DUE_EVENTS_SQL, OutboxRelay } from './outbox-relay';
import { Tx, UnitOfWork } from './unit-of-work';
import { deadLetterQueueName } from './topology';

const ThingHappened = defineEvent('producer', 'thing-happened', 1, z.object({ n: z.number().int() }));
/** No queue is ever bound to this one. */
const NobodyListens = defineEvent('producer', 'nobody-listens', 1, z.object({ n: z.number().int() }));

class EffectsTable1732069000001 implements MigrationInterface {
  async up(q: QueryRunner) {
    await q.query('CREATE TABLE effects (id serial PRIMARY KEY, event_id uuid NOT NULL, n integer NOT NULL)');
  }
  async down(q: QueryRunner) {
    await q.query('DROP TABLE effects');
  }
}

/** Records each applied event; n = -1 is a poison message that always fails. */
class RecordThing implements EventHandler<typeof ThingHappened> {
  async handle(payload: { n: number }, tx: Tx, envelope: { id: string }) {
    if (payload.n === -1) throw new Error('poison');
    await tx.manager.query('INSERT INTO effects (event_id, n) VALUES ($1, $2)', [envelope.id, payload.n]);
  }
}

describe('integration events on the real broker', () => {
  const ns = new TestNamespace();
  const names = { exchange: `${ns.id}.events`, queuePrefix: `${ns.id}.` };
  let proxy: TcpProxy;
  let producerDb: DataSource;
  let consumerDb: DataSource;
  let producerAmqp: AmqpConnection;
  let consumerAmqp: AmqpConnection;
  let relay: OutboxRelay;
  let uow: UnitOfWork;
  let consumer: EventConsumer;

  const effects = async (n: number): Promise<number> =>
    (await consumerDb.query('SELECT count(*)::int AS c FROM effects WHERE n = $1', [n]))[0].c;
  const publish = (n: number) => uow.run(async (tx) => tx.publish(ThingHappened, { n }));
  // Its fallback poll never comes within a test: every delivery here is the work of a wake (a write,
  // the start, a reconnection to the broker), which is what a service relies on.
  const newRelay = () => new OutboxRelay(producerDb, producerAmqp, { exchange: names.exchange, pollMs: 600_000, publishTimeoutMs: 2000 });

  beforeAll(async () => {
    const amqpUrl = new URL(TEST_AMQP_URL);
    proxy = await new TcpProxy(amqpUrl.hostname, Number(amqpUrl.port || 5672)).start();
    amqpUrl.hostname = '127.0.0.1';
    amqpUrl.port = String(proxy.port);

    producerDb = await openDataSource({ url: TEST_DATABASE_URL, schema: ns.schema('producer'), entities: [], migrations: [] });
    consumerDb = await openDataSource({ url: TEST_DATABASE_URL, schema: ns.schema('consumer'), entities: [], migrations: [EffectsTable1732069000001] });
    // The producer reaches the broker through the proxy so the test can take the broker away from it.
    producerAmqp = new AmqpConnection(amqpUrl.toString(), 'producer');
    consumerAmqp = new AmqpConnection(TEST_AMQP_URL, 'consumer');
    relay = newRelay();
    uow = new UnitOfWork(producerDb, relay);
    consumer = new EventConsumer(consumerAmqp, new PostgresInbox(consumerDb, { wake() {} }), { ...names, consumer: 'consumer', deliveryLimit: 3, prefetch: 4 }, [
      { event: ThingHappened, handler: new RecordThing(), name: 'RecordThing' },
    ]);
    await consumer.start();
    await waitFor(() => producerAmqp.isConnected(), { what: 'the producer to connect' });
    relay.start();
  });

  afterAll(async () => {
    await consumer.stop();
    await relay.stop();
    await producerAmqp.close();
    await consumerAmqp.close();
    await producerDb.destroy();
    await consumerDb.destroy();
    await proxy.stop();
    await ns.cleanup([deadLetterQueueName(names, 'consumer'), `${ns.id}.consumer.events`]);
  });

  it('delivers an event stored with a change, and a duplicate delivery takes effect once', async () => {
    const envelope = await publish(1);
    await waitFor(async () => (await effects(1)) === 1, { what: 'the event to be applied' });

    // The same envelope arrives again, as a broker redelivery or a second relay would bring it.
    const conn = await amqplib.connect(TEST_AMQP_URL);
    const ch = await conn.createConfirmChannel();
    ch.publish(names.exchange, ThingHappened.routingKey, Buffer.from(JSON.stringify(envelope)), { persistent: true });
    await ch.waitForConfirms();
    await conn.close();

    await publish(2); // a later event proves the duplicate was processed (in order) and skipped
    await waitFor(async () => (await effects(2)) === 1, { what: 'the follow-up event' });
    expect(await effects(1)).toBe(1);
    const inbox = await consumerDb.query('SELECT count(*)::int AS c FROM inbox_events WHERE event_id = $1', [envelope.id]);
    expect(inbox[0].c).toBe(1);
  });

  it('keeps an event stored while RabbitMQ is unreachable and delivers it as soon as the broker is back', async () => {
    await proxy.cut();
    await waitFor(() => !producerAmqp.isConnected(), { what: 'the producer to notice the broker is gone' });
    const envelope = await publish(3);

    await new Promise((r) => setTimeout(r, 700));
    const [row] = await producerDb.query('SELECT published_at FROM outbox_events WHERE id = $1', [envelope.id]);
    expect(row.published_at).toBeNull();
    expect(await effects(3)).toBe(0);

    await proxy.restore();
    await waitFor(async () => (await effects(3)) === 1, { timeoutMs: 20_000, what: 'delivery after reconnect' });
    await waitFor(async () => (await producerDb.query('SELECT published_at FROM outbox_events WHERE id = $1', [envelope.id]))[0].published_at, { what: 'the row to be marked published' });
    expect(await effects(3)).toBe(1);
  });

  it('dead-letters a message whose handler always throws, after the delivery limit, while others keep flowing', async () => {
    const conn = await amqplib.connect(TEST_AMQP_URL);
    const ch = await conn.createChannel();
    const dlq = deadLetterQueueName(names, 'consumer');
    const before = (await ch.checkQueue(dlq)).messageCount;

    const poison = await publish(-1);
    for (let n = 10; n < 20; n++) await publish(n);

    const healthy = async () => (await consumerDb.query('SELECT count(*)::int AS c FROM effects WHERE n BETWEEN 10 AND 19'))[0].c;
    await waitFor(async () => (await healthy()) === 10, { what: 'healthy events behind the poison one' });
    for (let n = 10; n < 20; n++) expect(await effects(n)).toBe(1);
    await waitFor(async () => (await ch.checkQueue(dlq)).messageCount === before + 1, { timeoutMs: 20_000, what: 'the poison message in the DLQ' });

    const dead = await ch.get(dlq, { noAck: true });
    expect(dead && JSON.parse(dead.content.toString()).id).toBe(poison.id);
    const inbox = await consumerDb.query('SELECT count(*)::int AS c FROM inbox_events WHERE event_id = $1', [poison.id]);
    expect(inbox[0].c).toBe(0); // its failed attempts left nothing behind
    await conn.close();
  });

  it('a relay that dies after publishing but before marking republishes, and the effect still happens once', async () => {
    const envelope = await publish(30);
    await waitFor(async () => (await effects(30)) === 1, { what: 'first delivery' });

    // What a crash between the broker's ack and the UPDATE leaves behind: a published row still unmarked.
    await relay.stop();
    await producerDb.query('UPDATE outbox_events SET published_at = NULL WHERE id = $1', [envelope.id]);
    relay = newRelay(); // the restarted process
    uow = new UnitOfWork(producerDb, relay);
    relay.start();

    await waitFor(async () => (await producerDb.query('SELECT published_at FROM outbox_events WHERE id = $1', [envelope.id]))[0].published_at, { what: 'the republish' });
    await publish(31);
    await waitFor(async () => (await effects(31)) === 1, { what: 'a later event' });
    expect(await effects(30)).toBe(1);
  });

  it('prunes published outbox rows past their retention, and never an unpublished one', async () => {
    const old = await publish(40);
    await waitFor(async () => (await effects(40)) === 1, { what: 'delivery' });
    await producerDb.query(`UPDATE outbox_events SET published_at = now() - interval '25 hours' WHERE id = $1`, [old.id]);
    const pending = '00000000-0000-4000-8000-000000000040';
    await producerDb.query(
      `INSERT INTO outbox_events (id, routing_key, envelope, created_at, available_at) VALUES ($1, 'x.y.v1', '{}', now() - interval '30 hours', now() + interval '1 day')`,
      [pending],
    );

    expect(await relay.prune()).toBeGreaterThanOrEqual(1);
    const left = await producerDb.query('SELECT id FROM outbox_events WHERE id = ANY($1)', [[old.id, pending]]);
    expect(left.map((r: { id: string }) => r.id)).toEqual([pending]);
  });

  it('prunes a backlog of old rows in bounded statements through the published-rows index', async () => {
    // 7 rows past the retention, deleted 3 at a time: three statements, oldest first.
    const ids = Array.from({ length: 9 }, (_, i) => `00000000-0000-4000-8000-0000000005${String(i).padStart(2, '0')}`);
    await producerDb.query(
      `INSERT INTO outbox_events (id, routing_key, envelope, published_at)
       SELECT id, 'x.y.v1', '{}', now() - make_interval(hours => 48 - n::int) FROM unnest($1::uuid[]) WITH ORDINALITY AS t(id, n)`,
      [ids.slice(0, 7)],
    );
    // Published within the retention, and never published: both stay.
    await producerDb.query(`INSERT INTO outbox_events (id, routing_key, envelope, published_at) VALUES ($1, 'x.y.v1', '{}', now() - interval '1 hour')`, [ids[7]]);
    await producerDb.query(`INSERT INTO outbox_events (id, routing_key, envelope, available_at) VALUES ($1, 'x.y.v1', '{}', now() + interval '1 day')`, [ids[8]]);
    const statements: number[] = [];
    const query = producerDb.query.bind(producerDb);
    const spy = jest.spyOn(producerDb, 'query').mockImplementation(async (sql: string, params?: unknown[]) => {
      const answer = await query(sql, params);
      if (sql.startsWith('DELETE FROM outbox_events')) statements.push(Number(answer[1]));
      return answer;
    });
    try {
      expect(await new OutboxRelay(producerDb, producerAmqp, { exchange: names.exchange, pollMs: 100, pruneBatch: 3 }).prune()).toBe(7);
    } finally {
      spy.mockRestore();
    }
    expect(statements).toEqual([3, 3, 1]);
    const left = await producerDb.query('SELECT id FROM outbox_events WHERE id = ANY($1) ORDER BY id', [ids]);
    expect(left.map((r: { id: string }) => r.id)).toEqual([ids[7], ids[8]]);
    // Built concurrently by its migration, outside a transaction: an index a failed build left invalid would not serve the prune.
    const [index] = await producerDb.query(`SELECT indisvalid AS valid FROM pg_index WHERE indexrelid = to_regclass('outbox_events_published')`);
    expect(index).toEqual({ valid: true });
  });

  describe('an event no queue is bound to', () => {
    let db: DataSource;
    let parkingRelay: OutboxRelay;
    let parkingUow: UnitOfWork;
    const row = async (id: string) => (await db.query('SELECT attempts, published_at, parked_at, last_error FROM outbox_events WHERE id = $1', [id]))[0];
    // The backoff would make each try wait 2^n seconds: the test makes the row due again instead.
    const tryAgainNow = async (id: string) => {
      await db.query('UPDATE outbox_events SET available_at = now() WHERE id = $1', [id]);
      await parkingRelay.drain();
    };

    beforeAll(async () => {
      db = await openDataSource({ url: TEST_DATABASE_URL, schema: ns.schema('parking'), entities: [], migrations: [] });
      parkingRelay = new OutboxRelay(db, consumerAmqp, { exchange: names.exchange, pollMs: 60_000, publishTimeoutMs: 2000, maxAttempts: 3 });
      parkingUow = new UnitOfWork(db, { wake() {} });
      await waitFor(() => consumerAmqp.isConnected(), { what: 'the broker' });
    });
    afterAll(async () => {
      await parkingRelay.stop();
      await db.destroy();
    });

    it('is retried, then parked after the configured number of tries: logged with its type, listed for operators, no longer read', async () => {
      const errors = jest.spyOn(Logger.prototype, 'error');
      const envelope = await parkingUow.run(async (tx) => tx.publish(NobodyListens, { n: 1 }));

      await tryAgainNow(envelope.id);
      await tryAgainNow(envelope.id);
      expect(await row(envelope.id)).toMatchObject({ attempts: 2, published_at: null, parked_at: null, last_error: 'unroutable: no queue bound' });

      await tryAgainNow(envelope.id);
      const parked = await row(envelope.id);
      expect(parked).toMatchObject({ attempts: 3, published_at: null });
      expect(parked.parked_at).toBeInstanceOf(Date);
      expect(errors).toHaveBeenCalledWith(expect.stringContaining(`parked producer.nobody-listens.v1 ${envelope.id} after 3 tries`));
      expect(await parkingRelay.parked()).toEqual([expect.objectContaining({ id: envelope.id, routingKey: 'producer.nobody-listens.v1', attempts: 3 })]);

      await tryAgainNow(envelope.id);
      expect((await row(envelope.id)).attempts).toBe(3); // the relay left it alone
      errors.mockRestore();
    });

    it("costs the relay's pass nothing: parked rows are outside the index its one query reads", async () => {
      await db.query(
        `INSERT INTO outbox_events (id, routing_key, envelope, attempts, last_error, parked_at)
         SELECT gen_random_uuid(), 'producer.nobody-listens.v1', '{}', 3, 'unroutable: no queue bound', now() FROM generate_series(1, 20000)`,
      );
      await db.query(`INSERT INTO outbox_events (id, routing_key, envelope) SELECT gen_random_uuid(), 'producer.thing-happened.v1', '{}' FROM generate_series(1, 3)`);
      await db.query('ANALYZE outbox_events');

      const [{ 'QUERY PLAN': [plan] }] = await db.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${CLAIM_DUE_EVENTS_SQL.replace('$1', '100')}`);
      const scans: { 'Relation Name'?: string; 'Index Name'?: string; 'Actual Rows': number; 'Rows Removed by Filter'?: number }[] = [];
      const walk = (node: { Plans?: unknown[] } & Record<string, unknown>) => {
        if (node['Relation Name'] === 'outbox_events') scans.push(node as never);
        for (const child of node.Plans ?? []) walk(child as never);
      };
      walk(plan.Plan);
      expect(scans).toHaveLength(1);
      expect(scans[0]['Index Name']).toBe('outbox_events_due');
      // Rows the scan looked at: the 3 due ones, none of the 20,000 parked.
      expect(scans[0]['Actual Rows'] + (scans[0]['Rows Removed by Filter'] ?? 0)).toBe(3);
    });
  });
});
