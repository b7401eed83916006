import { randomUUID } from 'node:crypto';
import amqplib from 'amqplib';
import { DataSource, MigrationInterface, QueryRunner } from 'typeorm';
import { z } from 'zod';
import { defineEvent, EventEnvelope } from '@esim/contracts';
import { TEST_AMQP_URL, TEST_DATABASE_URL, TestNamespace, waitFor } from '@esim/testing';
import { DEAD_LETTER_HEADERS } from '../dead-letters/dead-letter-headers';
import { DeadLetters } from '../dead-letters/dead-letters';
import { openDataSource } from '../persistence/data-source';
import { AmqpConnection } from './amqp-connection';
import { EVENT_BATCH } from './event-batch';
import { EventConsumer } from './event-consumer';
import { EventHandler } from './event-handler';
import { PostgresInbox } from './inbox';
import { OutboxRelay } from './outbox-relay';
import { deadLetterQueueName, eventQueueName } from './topology';
import { Tx, UnitOfWork } from './unit-of-work';

const Scored = defineEvent('producer', 'scored', 1, z.object({ n: z.number().int() }));

class ScoresTable1732069000003 implements MigrationInterface {
  async up(q: QueryRunner) {
    await q.query('CREATE TABLE scores (event_id uuid NOT NULL, n integer NOT NULL, txid bigint NOT NULL)');
  }
  async down(q: QueryRunner) {
    await q.query('DROP TABLE scores');
  }
}

/** One event at a time; n = -1 always fails; n >= 1000 takes 20 ms, and how many such run at once is kept. */
class RecordScore implements EventHandler<typeof Scored> {
  static slow = { running: 0, most: 0 };

  async handle(payload: { n: number }, tx: Tx, envelope: EventEnvelope) {
    if (payload.n === -1) throw new Error('poison score');
    const slow = payload.n >= 1000 && this.constructor === RecordScore;
    if (slow) RecordScore.slow.most = Math.max(RecordScore.slow.most, ++RecordScore.slow.running);
    try {
      if (slow) await tx.manager.query('SELECT pg_sleep(0.02)');
      await tx.manager.query('INSERT INTO scores VALUES ($1, $2, txid_current())', [envelope.id, payload.n]);
    } finally {
      if (slow) RecordScore.slow.running--;
    }
  }
}

/** Many at a time (handleAll), as the hot handlers of rewards do; n = -1 always fails. */
class RecordScores extends RecordScore {
  async handleAll(events: Array<{ payload: { n: number }; envelope: EventEnvelope }>, tx: Tx) {
    if (events.some((e) => e.payload.n === -1)) throw new Error('poison score');
    await tx.manager.query('INSERT INTO scores SELECT id, n, txid_current() FROM unnest($1::uuid[], $2::int[]) AS t(id, n)', [
      events.map((e) => e.envelope.id),
      events.map((e) => e.payload.n),
    ]);
  }
}

/**
 * The outbox relay sends the events of one type that a pass finds as one message (EVENT_BATCH),
 * and consumers apply each of them as if it had come alone: on the real broker and Postgres, with
 * a consumer that applies one event at a time ('single') and one that groups them ('grouped').
 */
describe('event batches on the real broker', () => {
  const ns = new TestNamespace();
  const names = { exchange: `${ns.id}.events`, queuePrefix: `${ns.id}.` };
  const consumers = ['single', 'grouped'] as const;
  let producerDb: DataSource;
  const dbs: Record<string, DataSource> = {};
  let producerAmqp: AmqpConnection;
  let consumerAmqp: AmqpConnection;
  let relay: OutboxRelay;
  let uow: UnitOfWork;
  const running: Record<string, EventConsumer> = {};
  let conn: amqplib.ChannelModel;
  let ch: amqplib.ConfirmChannel;
  /** A queue of the test's own bound to the event: it sees each message the relay publishes. */
  const probe = `${ns.id}.probe`;

  const publishAll = (ns_: number[]) => uow.run(async (tx) => Promise.all(ns_.map((n) => tx.publish(Scored, { n }))));
  const scores = async (consumer: string, ids: string[]) =>
    (await dbs[consumer].query('SELECT count(*)::int AS c FROM scores WHERE event_id = ANY($1)', [ids]))[0].c as number;
  const inbox = async (consumer: string, ids: string[]) =>
    (await dbs[consumer].query('SELECT count(*)::int AS c FROM inbox_events WHERE event_id = ANY($1)', [ids]))[0].c as number;
  const probed = async () => {
    const msgs: amqplib.GetMessage[] = [];
    for (let m = await ch.get(probe, { noAck: true }); m; m = await ch.get(probe, { noAck: true })) msgs.push(m);
    return msgs;
  };
  /** The next message on `queue` (the test has just waited for it to be there). */
  const takeOne = async (queue: string): Promise<amqplib.GetMessage> => {
    const m = await ch.get(queue, { noAck: true });
    if (!m) throw new Error(`no message on ${queue}`);
    return m;
  };
  const dlqCount = async (consumer: string) => (await ch.checkQueue(deadLetterQueueName(names, consumer))).messageCount;

  beforeAll(async () => {
    producerDb = await openDataSource({ url: TEST_DATABASE_URL, schema: ns.schema('producer'), entities: [], migrations: [] });
    for (const c of consumers)
      dbs[c] = await openDataSource({ url: TEST_DATABASE_URL, schema: ns.schema(c), entities: [], migrations: [ScoresTable1732069000003] });
    producerAmqp = new AmqpConnection(TEST_AMQP_URL, 'producer');
    consumerAmqp = new AmqpConnection(TEST_AMQP_URL, 'consumer');
    // No automatic passes: each test drains the outbox itself, so it knows what went in one pass.
    relay = new OutboxRelay(producerDb, producerAmqp, { exchange: names.exchange, pollMs: 3_600_000, publishTimeoutMs: 5000 });
    uow = new UnitOfWork(producerDb, { wake() {} });
    running.single = new EventConsumer(
      consumerAmqp,
      new PostgresInbox(dbs.single, { wake() {} }),
      { ...names, consumer: 'single', deliveryLimit: 2, prefetch: 4 },
      [{ event: Scored, handler: new RecordScore(), name: 'RecordScore' }],
    );
    running.grouped = new EventConsumer(
      consumerAmqp,
      new PostgresInbox(dbs.grouped, { wake() {} }),
      { ...names, consumer: 'grouped', deliveryLimit: 2 },
      [{ event: Scored, handler: new RecordScores(), name: 'RecordScores' }],
    );
    for (const c of consumers) await running[c].start();
    conn = await amqplib.connect(TEST_AMQP_URL);
    ch = await conn.createConfirmChannel();
    await ch.assertQueue(probe, { durable: false, autoDelete: false });
    await ch.bindQueue(probe, names.exchange, Scored.routingKey);
    await waitFor(() => producerAmqp.isConnected(), { what: 'the producer to connect' });
  });

  afterAll(async () => {
    for (const c of consumers) await running[c]?.stop();
    await relay.stop();
    await ch.deleteQueue(probe).catch(() => undefined);
    await conn.close();
    await producerAmqp.close();
    await consumerAmqp.close();
    await producerDb.destroy();
    for (const db of Object.values(dbs)) await db.destroy();
    await ns.cleanup(
      consumers
        .flatMap((c) => [eventQueueName(names, c), deadLetterQueueName(names, c)])
        .concat(eventQueueName(names, 'crashy'), deadLetterQueueName(names, 'crashy')),
    );
  });

  it('sends the events of one pass as one message, and each consumer applies each event once', async () => {
    const envelopes = await publishAll(Array.from({ length: 50 }, (_, n) => n));
    const ids = envelopes.map((e) => e.id);
    await relay.drain();

    const [msg, ...more] = await probed();
    expect(more).toHaveLength(0);
    expect(msg.properties.contentType).toBe(EVENT_BATCH.contentType);
    expect(msg.properties.headers?.[EVENT_BATCH.countHeader]).toBe(50);
    expect((JSON.parse(msg.content.toString()) as EventEnvelope[]).map((e) => e.id)).toEqual(ids);
    const [{ published }] = await producerDb.query(
      'SELECT count(*)::int AS published FROM outbox_events WHERE id = ANY($1) AND published_at IS NOT NULL',
      [ids],
    );
    expect(published).toBe(50);

    for (const c of consumers) await waitFor(async () => (await scores(c, ids)) === 50, { what: `${c} to apply the batch` });
    for (const c of consumers) expect(await inbox(c, ids)).toBe(50);
    // The grouping consumer applied the batch in fewer transactions than events.
    const [{ transactions }] = await dbs.grouped.query(
      'SELECT count(DISTINCT txid)::int AS transactions FROM scores WHERE event_id = ANY($1)',
      [ids],
    );
    expect(transactions).toBeLessThan(50);
  });

  it('applies no more events at once than its prefetch, however many batches it holds', async () => {
    RecordScore.slow.most = 0;
    const ids: string[] = [];
    for (const pass of [0, 1, 2]) {
      ids.push(...(await publishAll(Array.from({ length: 12 }, (_, i) => 1000 + pass * 12 + i))).map((e) => e.id));
      await relay.drain();
    }
    expect(await probed()).toHaveLength(3);
    await waitFor(async () => (await scores('single', ids)) === 36, { what: 'the three batches applied' });
    // 'single' has a prefetch of 4: it holds the three messages at once, and still runs 4 events at most.
    expect(RecordScore.slow.most).toBe(4);
  });

  it('applies nothing again when the same batch message comes again', async () => {
    const ids = (await publishAll([60, 61, 62, 63, 64])).map((e) => e.id);
    await relay.drain();
    const [msg] = await probed();
    for (const c of consumers) await waitFor(async () => (await scores(c, ids)) === 5, { what: `${c} to apply the batch` });
    const before = Object.fromEntries(consumers.map((c) => [c, running[c].stats.duplicates]));

    ch.publish(names.exchange, Scored.routingKey, msg.content, {
      persistent: true,
      contentType: msg.properties.contentType,
      headers: msg.properties.headers,
    });
    await ch.waitForConfirms();
    for (const c of consumers)
      await waitFor(() => running[c].stats.duplicates === before[c] + 5, { what: `${c} to skip the 5 duplicates` });
    await probed();
    for (const c of consumers) expect(await scores(c, ids)).toBe(5);
  });

  it('with one poison event in a batch: the others are applied once, only the poison one is dead-lettered, with its reason', async () => {
    const dlqBefore = Object.fromEntries(await Promise.all(consumers.map(async (c) => [c, await dlqCount(c)] as const)));
    const envelopes = await publishAll([70, 71, -1, 72, 73]);
    const poison = envelopes[2];
    const good = envelopes.filter((e) => e !== poison).map((e) => e.id);
    await relay.drain();
    expect(await probed()).toHaveLength(1);

    for (const c of consumers) {
      await waitFor(async () => (await dlqCount(c)) === dlqBefore[c] + 1, {
        what: `the poison event in ${c}'s dead-letter queue`,
        timeoutMs: 20_000,
      });
      expect(await scores(c, good)).toBe(4);
      expect(await inbox(c, good)).toBe(4);
      expect(await inbox(c, [poison.id])).toBe(0);
      const dead = await takeOne(deadLetterQueueName(names, c));
      expect(EVENT_BATCH.is(dead.properties)).toBe(false);
      expect(JSON.parse(dead.content.toString())).toEqual(JSON.parse(JSON.stringify(poison)));
      expect(dead.properties.messageId).toBe(poison.id);
      expect(dead.properties.headers).toMatchObject({
        [DEAD_LETTER_HEADERS.reason]: 'handler_failed',
        [DEAD_LETTER_HEADERS.error]: 'poison score',
        [DEAD_LETTER_HEADERS.consumer]: c,
      });
    }
  });

  it('applies single messages and batches side by side', async () => {
    const alone = (await publishAll([80]))[0].id;
    await relay.drain();
    const batch = (await publishAll([81, 82, 83])).map((e) => e.id);
    const alsoAlone = (await publishAll([84]))[0].id;
    // One event alone in a pass goes out exactly as it always did.
    const single = await probed();
    expect(single).toHaveLength(1);
    expect(single[0].properties.contentType).toBe('application/json');
    expect(single[0].properties.headers?.[EVENT_BATCH.countHeader]).toBeUndefined();
    expect(JSON.parse(single[0].content.toString()).id).toBe(alone);
    await relay.drain();
    expect(await probed()).toHaveLength(1);
    // And a single message sent by anything else (an older relay, a replay) still works.
    const raw = {
      id: randomUUID(),
      type: Scored.routingKey,
      occurredAt: new Date().toISOString(),
      correlationId: randomUUID(),
      causationId: null,
      payload: { n: 85 },
    };
    ch.publish(names.exchange, Scored.routingKey, Buffer.from(JSON.stringify(raw)), { persistent: true });
    await ch.waitForConfirms();

    const all = [alone, ...batch, alsoAlone, raw.id];
    for (const c of consumers) await waitFor(async () => (await scores(c, all)) === 6, { what: `${c} to apply all` });
    await probed();
  });

  it('dead-letters an unreadable batch body as it is', async () => {
    const before = await dlqCount('single');
    ch.publish(names.exchange, Scored.routingKey, Buffer.from('[{"id": not json'), {
      persistent: true,
      contentType: EVENT_BATCH.contentType,
      headers: { [EVENT_BATCH.countHeader]: 2 },
    });
    await ch.waitForConfirms();
    await waitFor(async () => (await dlqCount('single')) === before + 1, { what: 'the unreadable batch dead-lettered' });
    const dead = await takeOne(deadLetterQueueName(names, 'single'));
    expect(dead.content.toString()).toBe('[{"id": not json');
    expect(dead.properties.headers?.[DEAD_LETTER_HEADERS.reason]).toBe('unreadable');
    await probed();
  });

  it('a batch the broker dead-lettered whole (delivery limit) is shown and replayed event by event', async () => {
    // A consumer that died on each delivery: the quorum queue moves the message to the DLQ itself.
    const queue = eventQueueName(names, 'crashy');
    const dlq = deadLetterQueueName(names, 'crashy');
    await ch.assertQueue(dlq, { durable: true, arguments: { 'x-queue-type': 'quorum' } });
    await ch.assertQueue(queue, {
      durable: true,
      arguments: { 'x-queue-type': 'quorum', 'x-delivery-limit': 1, 'x-dead-letter-exchange': '', 'x-dead-letter-routing-key': dlq },
    });
    await ch.bindQueue(queue, names.exchange, Scored.routingKey);
    const envelopes = await publishAll([90, 91, 92]);
    const ids = envelopes.map((e) => e.id);
    await relay.drain();
    await probed();
    const crash = await conn.createChannel();
    const { consumerTag } = await crash.consume(queue, (m) => m && crash.nack(m, false, true));
    await waitFor(async () => (await ch.checkQueue(dlq)).messageCount === 1, { what: 'the broker to dead-letter the batch' });
    await crash.cancel(consumerTag);
    await crash.close();

    const deadLetters = new DeadLetters(consumerAmqp, names);
    const view = await deadLetters.list('crashy');
    expect(view.count).toBe(3);
    expect(view.messages.map((m) => m.messageId)).toEqual(ids);
    expect(view.messages.map((m) => m.payloadSummary.n)).toEqual(['90', '91', '92']);
    for (const m of view.messages) expect(m).toMatchObject({ type: Scored.routingKey, reason: 'delivery_limit' });

    // Now a consumer that works: one event replayed alone, then the rest.
    const db = await openDataSource({
      url: TEST_DATABASE_URL,
      schema: ns.schema('crashy'),
      entities: [],
      migrations: [ScoresTable1732069000003],
    });
    const crashy = new EventConsumer(
      consumerAmqp,
      new PostgresInbox(db, { wake() {} }),
      { ...names, consumer: 'crashy', deliveryLimit: 1 },
      [{ event: Scored, handler: new RecordScore(), name: 'RecordScore' }],
    );
    try {
      await crashy.start();
      const applied = async () =>
        (await db.query('SELECT n FROM scores WHERE event_id = ANY($1) ORDER BY n', [ids])).map((r: { n: number }) => r.n);
      expect(await deadLetters.replay('crashy', ids[1])).toBe(1);
      await waitFor(async () => (await applied()).length === 1, { what: 'the replayed event applied' });
      expect(await applied()).toEqual([91]);
      const left = await deadLetters.list('crashy');
      expect(left.count).toBe(2);
      expect(left.messages.map((m) => m.messageId).sort()).toEqual([ids[0], ids[2]].sort());
      for (const m of left.messages) expect(m.reason).toBe('delivery_limit');

      expect(await deadLetters.replayAll('crashy')).toBe(2);
      await waitFor(async () => (await applied()).length === 3, { what: 'the rest applied' });
      // Replaying again (a copy, a second click) applies nothing more.
      ch.sendToQueue(queue, Buffer.from(JSON.stringify(envelopes)), {
        persistent: true,
        contentType: EVENT_BATCH.contentType,
        headers: { [EVENT_BATCH.countHeader]: 3 },
      });
      await ch.waitForConfirms();
      await waitFor(() => crashy.stats.duplicates === 3, { what: 'the copy skipped' });
      expect(await applied()).toEqual([90, 91, 92]);
      expect((await ch.checkQueue(dlq)).messageCount).toBe(0);
    } finally {
      await crashy.stop();
      await db.destroy();
    }
  });
});
