import amqplib from 'amqplib';
import { Queue } from 'bullmq';
import Redis from 'ioredis';
import { Client } from 'pg';
import { EventConsumer } from '@esim/platform';
import { TEST_AMQP_URL, TEST_DATABASE_URL, TEST_REDIS_URL, waitFor } from '@esim/testing';
import type { System } from './system';

/** What is still on its way somewhere, by stage; empty when nothing is. */
async function pending(sys: System): Promise<string[]> {
  const services = Object.keys(sys.apps).filter((s) => s !== 'gateway');
  const left: string[] = [];
  // Upstream first: an event that moves on between two reads is found at the later stage.
  const pg = new Client({ connectionString: TEST_DATABASE_URL });
  await pg.connect();
  try {
    for (const service of services) {
      const { rows } = await pg.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM "${sys.ns.schema(service)}".outbox_events WHERE published_at IS NULL AND parked_at IS NULL`,
      );
      if (rows[0].n > 0) left.push(`${service}: ${rows[0].n} outbox rows unpublished`);
    }
  } finally {
    await pg.end();
  }
  const conn = await amqplib.connect(TEST_AMQP_URL);
  try {
    for (const service of [...services, 'gateway']) {
      // A channel each: asking for a queue that does not exist (a service that consumes no event) closes it.
      const ch = await conn.createChannel();
      ch.on('error', () => undefined);
      const queue = await ch.checkQueue(`${sys.ns.id}.${service}.events`).catch(() => null);
      if (queue && queue.messageCount > 0) left.push(`${service}: ${queue.messageCount} events ready in its queue`);
      if (queue) await ch.close();
    }
  } finally {
    await conn.close();
  }
  for (const [service, app] of Object.entries(sys.apps)) {
    // Counted on arrival and again once settled: a difference is an event in the consumer's hands.
    const { received, applied, duplicates, failed } = app!.get(EventConsumer).stats;
    if (received > applied + duplicates + failed) left.push(`${service}: ${received - applied - duplicates - failed} events in hand`);
  }
  if (sys.apps.notifications) {
    const connection = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
    const emails = new Queue('email', { connection, prefix: `${sys.ns.env('notifications').REDIS_PREFIX}bull` });
    try {
      const counts = await emails.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
      const open = Object.values(counts).reduce((a, b) => a + b, 0);
      if (open > 0) left.push(`notifications: ${open} emails not sent yet (${JSON.stringify(counts)})`);
    } finally {
      await emails.close();
      connection.disconnect();
    }
  }
  return left;
}

/**
 * Waits until nothing is on its way in the system any more, as the system itself reports it: no
 * outbox row waiting to be published, no event ready in a service's queue or in a consumer's
 * hands, and no email job waiting, being sent or waiting for a retry. What an effect that has not
 * happened by then would need is gone, so a test can then assert that it did not happen. Read
 * twice in a row: an event on the wire between the broker and a consumer is in neither count.
 */
export async function waitForQuiet(sys: System, what: string): Promise<void> {
  let quietReads = 0;
  await waitFor(
    async () => {
      const left = await pending(sys);
      quietReads = left.length === 0 ? quietReads + 1 : 0;
      // The reason the wait would time out, in its message.
      if (left.length > 0) throw new Error(`still on its way: ${left.join('; ')}`);
      return quietReads >= 2;
    },
    { what, timeoutMs: 60_000 },
  );
}
