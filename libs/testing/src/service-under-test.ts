import { randomUUID } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import amqplib from 'amqplib';
import { DataSource } from 'typeorm';
import { EventDefinition, EventEnvelope, EventPayload, ServiceName, UserRegistered } from '@esim/contracts';
import { Env, RequestContext, RpcClient } from '@esim/platform';
import { TEST_AMQP_URL, TestNamespace, waitFor } from './namespace';

/** One real service in its own namespace, and what its integration tests do around it. */
export interface ServiceUnderTest {
  ns: TestNamespace;
  app: INestApplication;
  db: DataSource;
  /** Calls the service's RPCs from outside, as another service would (`asUser` sets the acting user). */
  rpc: RpcClient;
  /** Publishes an event onto the namespace's exchange, as its producer's outbox relay would. */
  publish<D extends EventDefinition>(def: D, payload: EventPayload<D>, envelope?: Partial<EventEnvelope>): Promise<EventEnvelope>;
  /** Waits until the service applied the event (its inbox row is written in the handler's transaction). */
  applied(envelope: EventEnvelope): Promise<void>;
  /** Publishes UserRegistered for a new user, as identity would at sign-up. */
  announceUser(): Promise<{ userId: string; envelope: EventEnvelope }>;
  /** Messages waiting in the service's dead-letter queue (events whose handler kept failing). */
  deadLettered(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Starts `service` with `start` (its `serviceStarter`) in a fresh TestNamespace, with an RPC client
 * and a confirm channel on the namespace's exchange. `env` is added to the namespace's environment.
 */
export async function startServiceUnderTest(
  service: ServiceName,
  start: (env: Env) => Promise<INestApplication>,
  env: (ns: TestNamespace) => Env = () => ({}),
): Promise<ServiceUnderTest> {
  const ns = new TestNamespace();
  const app = await start(ns.env(service, env(ns)));
  const db = app.get(DataSource);
  const rpc = new RpcClient({ exchange: `${ns.id}.events`, queuePrefix: `${ns.id}.`, url: TEST_AMQP_URL, timeoutMs: 15_000 });
  const conn = await amqplib.connect(TEST_AMQP_URL);
  const channel = await conn.createConfirmChannel();

  const publish: ServiceUnderTest['publish'] = async (def, payload, envelope = {}) => {
    const full: EventEnvelope = {
      id: randomUUID(),
      type: def.routingKey,
      occurredAt: new Date().toISOString(),
      correlationId: randomUUID(),
      causationId: null,
      payload,
      ...envelope,
    };
    channel.publish(`${ns.id}.events`, def.routingKey, Buffer.from(JSON.stringify(full)), { persistent: true });
    await channel.waitForConfirms();
    return full;
  };

  return {
    ns,
    app,
    db,
    rpc,
    publish,
    async applied(envelope) {
      await waitFor(async () => (await db.query('SELECT 1 FROM inbox_events WHERE event_id = $1', [envelope.id])).length === 1, {
        what: `${envelope.type} applied`,
      });
    },
    async announceUser() {
      const userId = randomUUID();
      const registeredAt = new Date().toISOString();
      const envelope = await publish(UserRegistered, { userId, email: `${userId}@example.test`, name: 'Test', locale: 'en', registeredAt });
      return { userId, envelope };
    },
    async deadLettered() {
      const ch = await conn.createChannel();
      try {
        return (await ch.checkQueue(`${ns.id}.${service}.events.dlq`)).messageCount;
      } finally {
        await ch.close();
      }
    },
    async stop() {
      await rpc.close();
      await conn.close();
      await app.close();
      await ns.cleanup();
    },
  };
}

/**
 * Runs `call` as `userId`: RPCs sent inside carry them as the acting user (meta.userId), as the
 * gateway's calls for a signed-in user do.
 */
export function asUser<T>(userId: string, call: () => T): T {
  return RequestContext.run({ userId }, call);
}
