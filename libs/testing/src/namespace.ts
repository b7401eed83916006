import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import amqplib from 'amqplib';
import Redis from 'ioredis';
import { SERVICES } from '@esim/contracts';
import type { Env } from '@esim/platform';
import { LOCAL_TEST_URLS } from './infrastructure';

// Set by jest-global-setup.ts (given, a testcontainers container, or the local server).
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || LOCAL_TEST_URLS.TEST_DATABASE_URL;
export const TEST_AMQP_URL = process.env.TEST_AMQP_URL || LOCAL_TEST_URLS.TEST_AMQP_URL;
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL || LOCAL_TEST_URLS.TEST_REDIS_URL;

/**
 * Isolation for one test file on the shared real servers: its own schemas, exchange, queue
 * names and Redis key prefix, all derived from one random id and removed by `cleanup()`.
 */
export class TestNamespace {
  readonly id = `t${randomBytes(5).toString('hex')}`;

  schema(service: string): string {
    return `${service}_${this.id}`;
  }

  /** Environment for a service under test; `overrides` win. */
  env(service: string, overrides: Env = {}): Env {
    return {
      NODE_ENV: 'test',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      DATABASE_URL: TEST_DATABASE_URL,
      DB_SCHEMA: this.schema(service),
      AMQP_URL: TEST_AMQP_URL,
      EVENTS_EXCHANGE: `${this.id}.events`,
      QUEUE_PREFIX: `${this.id}.`,
      REDIS_URL: TEST_REDIS_URL,
      REDIS_PREFIX: `${this.id}:`,
      OUTBOX_POLL_MS: '100',
      EVENT_DELIVERY_LIMIT: '3',
      HEALTH_PORT: '0',
      PORT: '0',
      OPS_PORT: '0',
      METRICS_QUEUE_REFRESH_MS: '200',
      // Fault-injection tests count on every provider call reaching the emulator; the breaker
      // tests (test/observability/provider-breakers.e2e-spec.ts, keepgo.integration-spec.ts) set their own.
      KEEPGO_BREAKER_FAILURES: '1000',
      STRIPE_BREAKER_FAILURES: '1000',
      SMTP_BREAKER_FAILURES: '1000',
      ...overrides,
    };
  }

  /** Drops everything this namespace created on Postgres, RabbitMQ and Redis. */
  async cleanup(extraQueues: string[] = []): Promise<void> {
    const pg = new Client({ connectionString: TEST_DATABASE_URL });
    // A database that does not exist (a suite that ran its services elsewhere) holds no schema of ours.
    const connected = await pg.connect().then(
      () => true,
      () => false,
    );
    if (connected) {
      try {
        const { rows } = await pg.query<{ nspname: string }>(`SELECT nspname FROM pg_namespace WHERE nspname LIKE $1`, [`%\\_${this.id}`]);
        for (const { nspname } of rows) await pg.query(`DROP SCHEMA IF EXISTS "${nspname}" CASCADE`);
      } finally {
        await pg.end().catch(() => undefined);
      }
    }

    const conn = await amqplib.connect(TEST_AMQP_URL);
    try {
      const ch = await conn.createChannel();
      const queues = SERVICES.flatMap((s) => [`${this.id}.${s}.rpc`, `${this.id}.${s}.events`, `${this.id}.${s}.events.dlq`]);
      for (const q of [...queues, ...extraQueues]) await ch.deleteQueue(q);
      await ch.deleteExchange(`${this.id}.events`);
      await ch.close();
    } finally {
      await conn.close();
    }

    const redis = new Redis(TEST_REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
    try {
      await redis.connect();
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${this.id}:*`, 'COUNT', 500);
        cursor = next;
        if (keys.length) await redis.del(...keys);
      } while (cursor !== '0');
    } finally {
      redis.disconnect();
    }
  }
}

/** Polls until `probe` returns a truthy value or the time is up. */
export async function waitFor<T>(probe: () => Promise<T | undefined | null | false> | T | undefined | null | false, opts: { timeoutMs?: number; intervalMs?: number; what?: string } = {}): Promise<T> {
  const deadline = Date.now() + (opts.timeoutMs ?? 10_000);
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value as T;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${opts.what ?? 'condition'}${lastError ? `: ${(lastError as Error).message}` : ''}`);
    }
    await new Promise((r) => setTimeout(r, opts.intervalMs ?? 50));
  }
}
