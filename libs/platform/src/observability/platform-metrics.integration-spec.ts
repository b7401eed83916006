import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { TEST_AMQP_URL, TEST_DATABASE_URL, TestNamespace, waitFor } from '@esim/testing';
import { AmqpConnection } from '../messaging/amqp-connection';
import { openDataSource } from '../persistence/data-source';
import { afterCommit, CommitHooks } from './after-commit';
import { Metrics } from './metrics';
import { PlatformMetrics } from './platform-metrics';
import { QueueInspector } from './queue-inspector';

/** amqplib's promise-API channel (untyped module): its checkQueue is the call a queue-depth read makes. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { Channel } = require('amqplib/lib/channel_model') as { Channel: { prototype: { checkQueue(queue: string): Promise<unknown> } } };

/** The value of one series in the registry's exposition (undefined when absent). */
async function valueOf(metrics: Metrics, name: string, labels: Record<string, string> = {}): Promise<number | undefined> {
  const metric = (await metrics.registry.getMetricsAsJSON()).find((m) => m.name === name);
  const sample = (metric?.values ?? []).find((v) => Object.entries(labels).every(([k, x]) => v.labels[k] === x));
  return sample?.value;
}

/** The scrape-time gauges against the real Postgres and RabbitMQ, and counting after commit. */
describe('platform metrics computed on scrape', () => {
  const ns = new TestNamespace();
  const queue = `${ns.id}.gauged.events`;
  const dlq = `${queue}.dlq`;
  let db: DataSource;
  let amqp: AmqpConnection;
  let inspector: QueueInspector;
  let metrics: Metrics;
  let stopRefresh: () => void;

  beforeAll(async () => {
    db = await openDataSource({ url: TEST_DATABASE_URL, schema: ns.schema('gauged'), entities: [], migrations: [] });
    db.subscribers.push(new CommitHooks());
    amqp = new AmqpConnection(TEST_AMQP_URL, 'gauges-test');
    await amqp.manager.connect();
    inspector = new QueueInspector(amqp);
    metrics = new Metrics('gauged', { processMetrics: false });
    const platform = new PlatformMetrics(metrics);
    platform.watchOutbox(db);
    stopRefresh = platform.watchQueues(inspector, () => ({ queue, deadLetterQueue: dlq }), 100);
  });
  afterAll(async () => {
    stopRefresh();
    await inspector.close();
    await amqp.close();
    await db.destroy();
    await ns.cleanup([queue, dlq]);
  });

  it('reports the outbox backlog and the age of its oldest event, parked events apart, and skips published ones', async () => {
    expect(await valueOf(metrics, 'outbox_pending_events')).toBe(0);
    expect(await valueOf(metrics, 'outbox_oldest_pending_age_seconds')).toBe(0);
    await db.query(
      `INSERT INTO outbox_events (id, routing_key, envelope, created_at, published_at, parked_at) VALUES
         ($1, 'a.b.v1', '{}', now() - interval '90 seconds', NULL, NULL),
         ($2, 'a.b.v1', '{}', now() - interval '5 seconds', NULL, NULL),
         ($3, 'a.b.v1', '{}', now() - interval '2 hours', now(), NULL),
         ($4, 'a.c.v1', '{}', now() - interval '3 hours', NULL, now()),
         ($5, 'a.c.v1', '{}', now() - interval '3 hours', NULL, now())`,
      [randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID()],
    );
    await new Promise((r) => setTimeout(r, 1100)); // past the scrape snapshot
    expect(await valueOf(metrics, 'outbox_pending_events')).toBe(2);
    const age = (await valueOf(metrics, 'outbox_oldest_pending_age_seconds'))!;
    expect(age).toBeGreaterThanOrEqual(90);
    expect(age).toBeLessThan(150);
    expect(await valueOf(metrics, 'outbox_parked_events')).toBe(2);
  });

  it('reads the depth of the consumer\'s queue and dead-letter queue, and survives a queue that is missing', async () => {
    // Not declared yet: no sample (unknown), and the inspector's channel is dropped, not the process.
    expect(await valueOf(metrics, 'event_consumer_lag_messages')).toBeUndefined();
    await new Promise((r) => setTimeout(r, 1100));
    const ch = await amqp.manager.connection!.createChannel();
    await ch.assertQueue(queue, { durable: true, arguments: { 'x-queue-type': 'quorum' } });
    await ch.assertQueue(dlq, { durable: true, arguments: { 'x-queue-type': 'quorum' } });
    for (let i = 0; i < 3; i++) ch.sendToQueue(queue, Buffer.from('{}'));
    ch.sendToQueue(dlq, Buffer.from('{}'));
    await ch.close();
    let lag: number | undefined;
    for (let i = 0; i < 20 && lag !== 3; i++) {
      await new Promise((r) => setTimeout(r, 1100));
      lag = await valueOf(metrics, 'event_consumer_lag_messages', { queue });
    }
    expect(lag).toBe(3);
    expect(await valueOf(metrics, 'event_consumer_dead_letter_messages', { queue: dlq })).toBe(1);
    expect(amqp.isConnected()).toBe(true);
  });

  it('answers a scrape from the last background read of the queues, with no broker call', async () => {
    stopRefresh(); // the suite's own 100 ms refresh: every checkQueue below would be a scrape's
    const ch = await amqp.manager.connection!.createChannel();
    await ch.assertQueue(queue, { durable: true, arguments: { 'x-queue-type': 'quorum' } });
    await ch.assertQueue(dlq, { durable: true, arguments: { 'x-queue-type': 'quorum' } });
    await ch.close();
    // A registry of its own whose background read comes once a minute: only its first read runs here.
    const own = new Metrics('scraped', { processMetrics: false });
    const stop = new PlatformMetrics(own).watchQueues(inspector, () => ({ queue, deadLetterQueue: dlq }), 60_000);
    try {
      await waitFor(async () => (await valueOf(own, 'event_consumer_lag_messages', { queue })) !== undefined, { what: 'the first background read' });
      const checkQueue = jest.spyOn(Channel.prototype, 'checkQueue');
      try {
        for (let i = 0; i < 3; i++) {
          expect(await valueOf(own, 'event_consumer_lag_messages', { queue })).toEqual(expect.any(Number));
          expect(await valueOf(own, 'event_consumer_dead_letter_messages', { queue: dlq })).toEqual(expect.any(Number));
          await new Promise((r) => setTimeout(r, 1100)); // past any per-scrape cache
        }
        expect(checkQueue).not.toHaveBeenCalled();
      } finally {
        checkQueue.mockRestore();
      }
    } finally {
      stop();
    }
  });

  it('counts after commit, never for a transaction that rolled back', async () => {
    const counter = metrics.counter({ name: 'things_total', help: 'test', labelNames: ['status'] });
    await db.transaction(async (m) => {
      afterCommit(m, () => counter.inc({ status: 'kept' }));
      expect(await valueOf(metrics, 'things_total', { status: 'kept' })).toBeUndefined(); // not before the commit
    });
    await db
      .transaction(async (m) => {
        afterCommit(m, () => counter.inc({ status: 'undone' }));
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    afterCommit(db.manager, () => counter.inc({ status: 'outside' }));
    expect(await valueOf(metrics, 'things_total', { status: 'kept' })).toBe(1);
    expect(await valueOf(metrics, 'things_total', { status: 'undone' })).toBeUndefined();
    expect(await valueOf(metrics, 'things_total', { status: 'outside' })).toBe(1);
    // Defining it again answers the same counter.
    expect(metrics.counter({ name: 'things_total', help: 'test', labelNames: ['status'] })).toBe(counter);
  });
});
