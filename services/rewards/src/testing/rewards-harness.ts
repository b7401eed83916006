import { randomUUID } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import amqplib from 'amqplib';
import { DataSource } from 'typeorm';
import { EventDefinition, EventEnvelope, EventPayload, RewardsRpc, SIGNUP_BONUS_POINTS, UserRegistered } from '@esim/contracts';
import { Env, RpcClient } from '@esim/platform';
import { TEST_AMQP_URL, TestNamespace, waitFor } from '@esim/testing';
import { startRewards } from '../app';

/** The real rewards service in its own namespace, and what tests need around it. */
export interface RewardsUnderTest {
  ns: TestNamespace;
  app: INestApplication;
  db: DataSource;
  rpc: RpcClient;
  /** Publishes an event onto the namespace's exchange, as its producer's outbox relay would. */
  publish<D extends EventDefinition>(def: D, payload: EventPayload<D>, envelope?: Partial<EventEnvelope>): Promise<EventEnvelope>;
  /** A user registered through the real UserRegistered event, once the bonus is in. */
  registerUser(): Promise<string>;
  /** Messages waiting in rewards' dead-letter queue (events whose handler kept failing). */
  deadLettered(): Promise<number>;
  stop(): Promise<void>;
}

export async function startRewardsUnderTest(env: Env = {}): Promise<RewardsUnderTest> {
  const ns = new TestNamespace();
  const app = await startRewards(ns.env('rewards', { WEBHOOKS_DB_SCHEMA: ns.schema('webhooks'), ...env }));
  const db = app.get(DataSource);
  const rpc = new RpcClient({ exchange: `${ns.id}.events`, queuePrefix: `${ns.id}.`, url: TEST_AMQP_URL, timeoutMs: 15_000 });
  const conn = await amqplib.connect(TEST_AMQP_URL);
  const channel = await conn.createConfirmChannel();

  const publish: RewardsUnderTest['publish'] = async (def, payload, envelope = {}) => {
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
    async registerUser() {
      const userId = randomUUID();
      await publish(UserRegistered, {
        userId,
        email: `${userId}@example.test`,
        name: 'Test',
        locale: 'en',
        registeredAt: new Date().toISOString(),
      });
      await waitFor(async () => (await rpc.call(RewardsRpc.getBalance, { userId })).points === SIGNUP_BONUS_POINTS, {
        what: 'the sign-up bonus',
      });
      return userId;
    },
    async deadLettered() {
      const ch = await conn.createChannel();
      try {
        return (await ch.checkQueue(`${ns.id}.rewards.events.dlq`)).messageCount;
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
