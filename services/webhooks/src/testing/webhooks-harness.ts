import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { INestApplication } from '@nestjs/common';
import amqplib from 'amqplib';
import { DataSource } from 'typeorm';
import {
  EventDefinition,
  EventEnvelope,
  EventPayload,
  OfferwallId,
  OfferwallPostbackAccepted,
  UserRegistered,
} from '@esim/contracts';
import { Env, RpcClient } from '@esim/platform';
import { TEST_AMQP_URL, TestNamespace, waitFor } from '@esim/testing';
import { startWebhooks } from '../app';
import { OFFERWALL_PROVIDERS } from '../postbacks/providers';
import { Credentials, EmulatedPostback } from '../postbacks/providers/offerwall-provider';
import { sandboxCredentials } from '../sandbox/sandbox-credentials';

/** The public origin providers are told to call (PUBLIC_URL): what BitLabs signs. */
export const TEST_PUBLIC_URL = 'https://app.example';

export interface Answer {
  status: number;
  body: string;
}

/** The real ingestion service in its own namespace, called over HTTP as providers call it. */
export interface WebhooksUnderTest {
  ns: TestNamespace;
  app: INestApplication;
  db: DataSource;
  rpc: RpcClient;
  /** Where the service listens (its own port). */
  origin: string;
  /** Publishes an event onto the namespace's exchange, as its producer's outbox relay would. */
  publish<D extends EventDefinition>(def: D, payload: EventPayload<D>, envelope?: Partial<EventEnvelope>): Promise<EventEnvelope>;
  /** A user identity announced (UserRegistered), once the service knows it. */
  registerUser(): Promise<string>;
  /** Waits until the service applied the event. */
  applied(envelope: EventEnvelope): Promise<void>;
  /**
   * Calls a postback URL signed under TEST_PUBLIC_URL, as the provider would reach it through the
   * gateway: the same request target, `from` as the address the gateway resolved.
   */
  call(url: string, opts?: { from?: string; method?: 'GET' | 'POST'; form?: string; json?: string }): Promise<Answer>;
  /** The OfferwallPostbackAccepted events in the outbox for one provider transaction. */
  accepted(provider: OfferwallId, creditTransactionId: string): Promise<Array<EventPayload<typeof OfferwallPostbackAccepted>>>;
  stop(): Promise<void>;
}

export async function startWebhooksUnderTest(env: Env = {}): Promise<WebhooksUnderTest> {
  const ns = new TestNamespace();
  const app = await startWebhooks(ns.env('webhooks', { PUBLIC_URL: TEST_PUBLIC_URL, ...env }));
  const db = app.get(DataSource);
  const { port } = app.getHttpServer().address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  const rpc = new RpcClient({ exchange: `${ns.id}.events`, queuePrefix: `${ns.id}.`, url: TEST_AMQP_URL, timeoutMs: 15_000 });
  const conn = await amqplib.connect(TEST_AMQP_URL);
  const channel = await conn.createConfirmChannel();

  const publish: WebhooksUnderTest['publish'] = async (def, payload, envelope = {}) => {
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
  const applied = async (envelope: EventEnvelope) => {
    await waitFor(async () => (await db.query('SELECT 1 FROM inbox_events WHERE event_id = $1', [envelope.id])).length === 1, {
      what: `${envelope.type} applied`,
    });
  };

  return {
    ns,
    app,
    db,
    rpc,
    origin,
    publish,
    applied,
    async registerUser() {
      const userId = randomUUID();
      await applied(
        await publish(UserRegistered, {
          userId,
          email: `${userId}@example.test`,
          name: 'Test',
          locale: 'en',
          registeredAt: new Date().toISOString(),
        }),
      );
      return userId;
    },
    async call(url, opts = {}) {
      if (!url.startsWith(TEST_PUBLIC_URL)) throw new Error(`${url} is not under ${TEST_PUBLIC_URL}`);
      const headers: Record<string, string> = { 'user-agent': 'provider-test', 'x-forwarded-for': opts.from ?? '127.0.0.1' };
      if (opts.form !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
      if (opts.json !== undefined) headers['content-type'] = 'application/json';
      const res = await fetch(`${origin}${url.slice(TEST_PUBLIC_URL.length)}`, {
        method: opts.method ?? (opts.form !== undefined || opts.json !== undefined ? 'POST' : 'GET'),
        headers,
        body: opts.form ?? opts.json,
      });
      return { status: res.status, body: await res.text() };
    },
    async accepted(provider, creditTransactionId) {
      const rows: Array<{ envelope: EventEnvelope<EventPayload<typeof OfferwallPostbackAccepted>> }> = await db.query(
        `SELECT envelope FROM outbox_events WHERE routing_key = $1 AND envelope->'payload'->>'provider' = $2
            AND envelope->'payload'->>'creditTransactionId' = $3 ORDER BY seq`,
        [OfferwallPostbackAccepted.routingKey, provider, creditTransactionId],
      );
      return rows.map((r) => r.envelope.payload);
    },
    async stop() {
      await rpc.close();
      await conn.close();
      await app.close();
      await ns.cleanup();
    },
  };
}

/** The postback URL a sandbox wall (or, with `creds`, a live one) signs for `postback`. */
export function signedPostbackUrl(provider: OfferwallId, postback: EmulatedPostback, creds: Partial<Credentials> = {}): string {
  return OFFERWALL_PROVIDERS[provider].sign(
    { ...sandboxCredentials(provider), ...creds },
    postback,
    `${TEST_PUBLIC_URL}/webhooks/offerwalls/${provider}`,
  );
}
