import { randomUUID } from 'node:crypto';
import amqplib from 'amqplib';
import { MigrationInterface, QueryRunner } from 'typeorm';
import { z } from 'zod';
import { defineEvent, EventEnvelope } from '@esim/contracts';
import { TEST_AMQP_URL, TEST_DATABASE_URL, TestNamespace, waitFor } from '@esim/testing';
import { openDataSource } from '../persistence/data-source';
import { AmqpConnection } from './amqp-connection';
import { EventConsumer, GROUPED_MAX_WEIGHT } from './event-consumer';
import { EventHandler } from './event-handler';
import { PostgresInbox } from './inbox';
import { Tx } from './unit-of-work';

const Counted = defineEvent('producer', 'counted', 1, z.object({ n: z.number().int() }));
/** An event carrying `items` units of work (as one OfferwallPostbacksAccepted carries many postbacks). */
const Carried = defineEvent('producer', 'carried', 1, z.object({ n: z.number().int(), items: z.number().int() }));

class CountsTable1732069000002 implements MigrationInterface {
  async up(q: QueryRunner) {
    await q.query('CREATE TABLE counts (event_id uuid NOT NULL, n integer NOT NULL, txid bigint NOT NULL)');
  }
  async down(q: QueryRunner) {
    await q.query('DROP TABLE counts');
  }
}

/** Applies deliveries many at a time; records the transaction each was applied in. n = -1 always fails. */
class CountAll implements EventHandler<typeof Counted> {
  async handle(payload: { n: number }, tx: Tx, envelope: EventEnvelope) {
    await this.handleAll([{ payload, envelope }], tx);
  }

  async handleAll(events: Array<{ payload: { n: number }; envelope: EventEnvelope }>, tx: Tx) {
    if (events.some((e) => e.payload.n === -1)) throw new Error('poison');
    await tx.manager.query('INSERT INTO counts SELECT id, n, txid_current() FROM unnest($1::uuid[], $2::int[]) AS t(id, n)', [
      events.map((e) => e.envelope.id),
      events.map((e) => e.payload.n),
    ]);
  }
}

/** Applies events in groups bounded by the work they carry (weight); records the transaction of each. */
class CarryAll implements EventHandler<typeof Carried> {
  async handle(payload: { n: number; items: number }, tx: Tx, envelope: EventEnvelope) {
    await this.handleAll([{ payload, envelope }], tx);
  }

  async handleAll(events: Array<{ payload: { n: number; items: number }; envelope: EventEnvelope }>, tx: Tx) {
    await tx.manager.query('INSERT INTO counts SELECT id, n, txid_current() FROM unnest($1::uuid[], $2::int[]) AS t(id, n)', [
      events.map((e) => e.envelope.id),
      events.map((e) => e.payload.items),
    ]);
  }

  weight(payload: { items: number }) {
    return payload.items;
  }
}

/**
 * The consumer of Counted (CountAll) and Carried (CarryAll), in its own schema and queues, and a
 * confirm channel to publish to it.
 */
async function startRig(ns: TestNamespace, opts: { groupSpacingMs?: number }) {
  const db = await openDataSource({ url: TEST_DATABASE_URL, schema: ns.schema('consumer'), entities: [], migrations: [CountsTable1732069000002] });
  const amqp = new AmqpConnection(TEST_AMQP_URL, 'consumer');
  const names = { exchange: `${ns.id}.events`, queuePrefix: `${ns.id}.` };
  const consumer = new EventConsumer(amqp, new PostgresInbox(db, { wake() {} }), { ...names, ...opts, consumer: 'consumer', deliveryLimit: 2, prefetch: 50 }, [
    { event: Counted, handler: new CountAll(), name: 'CountAll' },
    { event: Carried, handler: new CarryAll(), name: 'CarryAll' },
  ]);
  await consumer.start();
  const conn = await amqplib.connect(TEST_AMQP_URL);
  const channel = await conn.createConfirmChannel();
  return {
    db,
    consumer,
    conn,
    channel,
    exchange: names.exchange,
    /** Sends a Counted event (not waiting for the broker's confirm); answers its id. */
    publish(n: number, id: string = randomUUID()): string {
      const envelope = { id, type: Counted.routingKey, occurredAt: new Date().toISOString(), correlationId: id, causationId: null, payload: { n } };
      channel.publish(names.exchange, Counted.routingKey, Buffer.from(JSON.stringify(envelope)), { persistent: true });
      return id;
    },
    async stop(): Promise<void> {
      await consumer.stop();
      await amqp.close();
      await conn.close();
      await db.destroy();
      await ns.cleanup();
    },
  };
}

/** A hot event's deliveries applied in groups (handleAll), each once, on the real broker and Postgres. */
describe('grouped consumption', () => {
  const ns = new TestNamespace();
  let rig: Awaited<ReturnType<typeof startRig>>;
  const applied = async (ids: string[]) =>
    (await rig.db.query('SELECT count(*)::int AS c FROM inbox_events WHERE event_id = ANY($1)', [ids]))[0].c as number;

  beforeAll(async () => {
    rig = await startRig(ns, {});
  });
  afterAll(() => rig.stop());

  it('applies a burst in fewer transactions than deliveries, each delivery once, a redelivered one not again', async () => {
    const ids = Array.from({ length: 200 }, (_, n) => rig.publish(n));
    rig.publish(7, ids[7]);
    await rig.channel.waitForConfirms();
    await waitFor(async () => (await applied(ids)) === 200, { what: 'the burst applied', timeoutMs: 20_000 });
    await waitFor(() => rig.consumer.stats.duplicates >= 1, { what: 'the redelivery acknowledged' });

    const [{ rows, transactions }] = await rig.db.query('SELECT count(*)::int AS rows, count(DISTINCT txid)::int AS transactions FROM counts WHERE event_id = ANY($1)', [ids]);
    expect(rows).toBe(200);
    expect(transactions).toBeLessThan(200);
  });

  it('a delivery that fails does not hold back the others of its group: it alone is retried, then dead-lettered', async () => {
    const good = Array.from({ length: 20 }, () => randomUUID());
    const poison = randomUUID();
    for (const [i, id] of good.entries()) {
      rig.publish(1000 + i, id);
      if (i === 10) rig.publish(-1, poison);
    }
    await rig.channel.waitForConfirms();
    await waitFor(async () => (await applied(good)) === 20, { what: 'the good deliveries applied' });
    const ch = await rig.conn.createChannel();
    await waitFor(async () => (await ch.checkQueue(`${ns.id}.consumer.events.dlq`)).messageCount === 1, { what: 'the poison dead-lettered' });
    await ch.close();
    expect(await applied([poison])).toBe(0);
  });

  it('keeps a group of heavy events within GROUPED_MAX_WEIGHT of work, however many the prefetch lets in', async () => {
    const items = GROUPED_MAX_WEIGHT / 4 + 1;
    const ids = Array.from({ length: 30 }, () => randomUUID());
    for (const [n, id] of ids.entries()) {
      const envelope = { id, type: Carried.routingKey, occurredAt: new Date().toISOString(), correlationId: id, causationId: null, payload: { n, items } };
      rig.channel.publish(rig.exchange, Carried.routingKey, Buffer.from(JSON.stringify(envelope)), { persistent: true });
    }
    await rig.channel.waitForConfirms();
    await waitFor(async () => (await applied(ids)) === ids.length, { what: 'the heavy events applied', timeoutMs: 20_000 });

    const groups: Array<{ events: number; work: number }> = await rig.db.query(
      'SELECT count(*)::int AS events, sum(n)::int AS work FROM counts WHERE event_id = ANY($1) GROUP BY txid',
      [ids],
    );
    expect(groups.reduce((sum, g) => sum + g.events, 0)).toBe(ids.length);
    // Three of these weigh less than the bound, four more: no group holds four.
    expect(Math.max(...groups.map((g) => g.events))).toBeLessThanOrEqual(3);
    expect(Math.max(...groups.map((g) => g.work))).toBeLessThanOrEqual(GROUPED_MAX_WEIGHT);
    expect(groups.length).toBeLessThan(ids.length);
  });
});

/** EVENT_GROUP_SPACING_MS: while a grouped event keeps coming, its groups start that far apart. */
describe('grouped consumption with groupSpacingMs', () => {
  const ns = new TestNamespace();
  let rig: Awaited<ReturnType<typeof startRig>>;
  const publish = async (n: number) => {
    const id = rig.publish(n);
    await rig.channel.waitForConfirms();
    return id;
  };
  const transactionsOf = async (ids: string[]) =>
    (await rig.db.query('SELECT txid FROM counts WHERE event_id = ANY($1) GROUP BY txid', [ids])).length as number;

  beforeAll(async () => {
    rig = await startRig(ns, { groupSpacingMs: 2_000 });
  });
  afterAll(() => rig.stop());

  it('applies an event after a quiet spell at once, and those that follow it within the spacing in one group', async () => {
    const first = await publish(1);
    await waitFor(async () => (await transactionsOf([first])) === 1, { what: 'the first event applied' });
    // Each arrives alone, well after the one before it: without the spacing, each is a group of its own.
    const next: string[] = [];
    for (const n of [2, 3, 4]) {
      next.push(await publish(n));
      await new Promise((r) => setTimeout(r, 150));
    }
    expect(await transactionsOf(next)).toBe(0);
    await waitFor(async () => (await rig.db.query('SELECT count(*)::int AS c FROM counts WHERE event_id = ANY($1)', [next]))[0].c === 3, {
      what: 'the three that followed applied',
    });
    expect(await transactionsOf(next)).toBe(1);
  });
});
