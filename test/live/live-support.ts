import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { INestApplication } from '@nestjs/common';
import amqplib from 'amqplib';
import type Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { BalanceChanged, EventDefinition, EventEnvelope, EventPayload, GiftSummaryChanged, ProfileChanged } from '@esim/contracts';
import { TEST_AMQP_URL, waitFor } from '@esim/testing';
import { EVENT_BATCH } from '../../libs/platform/src/messaging/event-batch';
import { REDIS } from '../../services/gateway/src/sessions/redis.provider';
import type { HttpClient } from '../support/http-client';
import type { System } from '../support/system';

/** The events that carry the parts of the gateway's user view, by the service that publishes them. */
const VIEW_EVENTS = [
  ['rewards', BalanceChanged.routingKey],
  ['identity', ProfileChanged.routingKey],
  ['esim', GiftSummaryChanged.routingKey],
] as const;

/**
 * Waits until the gateway has applied every user-view event its owners have stored so far (each
 * is in the gateway's Redis inbox): from then on `GET /api/user` shows what the owners hold, as
 * reading the owners themselves would. Tests that change an owner behind the gateway's back (a
 * postback, a direct ledger credit) read the view after this.
 */
export async function viewSettled(sys: System, gateway = sys.apps.gateway!, timeoutMs = 20_000): Promise<void> {
  const redis = gateway.get<Redis>(REDIS);
  await waitFor(
    async () => {
      for (const [service, type] of VIEW_EVENTS) {
        const app = sys.apps[service];
        if (!app) continue;
        const rows: Array<{ id: string }> = await app.get(DataSource).query('SELECT id FROM outbox_events WHERE routing_key = $1', [type]);
        if (rows.length === 0) continue;
        const applied = await redis.exists(...rows.map((r) => `inbox:gateway:${r.id}`));
        if (applied !== rows.length) return false;
      }
      return true;
    },
    { what: "the gateway's user view to catch up with the owners' events", timeoutMs, intervalMs: 25 },
  );
}

/** One server-sent event as a test reads it. */
export interface LiveMessage {
  event: string;
  data: any;
}

/**
 * A live stream (GET /api/events) read the way EventSource reads it, from a test: every message,
 * in order, the answer's status and headers, and whether the server ended it.
 */
export class LiveStreamClient {
  readonly messages: LiveMessage[] = [];
  status = 0;
  headers: http.IncomingHttpHeaders = {};
  body = '';
  ended = false;
  /** Heartbeat comments received so far. */
  heartbeats = 0;
  private req!: http.ClientRequest;
  private buffered = '';
  private readonly waiters = new Set<() => void>();
  readonly opened: Promise<void>;

  constructor(baseUrl: string, headers: Record<string, string> = {}) {
    this.opened = new Promise((resolve, reject) => {
      this.req = http.get(`${baseUrl}/api/events`, { headers: { accept: 'text/event-stream', ...headers }, agent: false }, (res) => {
        this.status = res.statusCode ?? 0;
        this.headers = res.headers;
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => this.read(chunk));
        res.on('end', () => this.finish());
        res.on('close', () => this.finish());
        resolve();
      });
      this.req.on('error', (err) => (this.status ? this.finish() : reject(err)));
    });
  }

  /** The stream of the session `client` holds (its cookie). */
  static of(client: HttpClient, headers: Record<string, string> = {}): LiveStreamClient {
    return new LiveStreamClient(client.baseUrl, { cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; '), ...headers });
  }

  /** Waits for a message (after the `after`-th) that `match` accepts. */
  async next(match: (m: LiveMessage) => boolean = () => true, opts: { after?: number; timeoutMs?: number } = {}): Promise<LiveMessage> {
    const deadline = Date.now() + (opts.timeoutMs ?? 10_000);
    for (;;) {
      const found = this.messages.slice(opts.after ?? 0).find(match);
      if (found) return found;
      if (this.ended) throw new Error(`the stream ended without the message; got ${JSON.stringify(this.messages)}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no such message within ${opts.timeoutMs ?? 10_000} ms; got ${JSON.stringify(this.messages)}`);
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          this.waiters.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, left);
        this.waiters.add(wake);
      });
    }
  }

  /**
   * Waits for the server's next heartbeat (a comment line, every LIVE_HEARTBEAT_MS) on this
   * stream: whatever the server wrote to it before has arrived by then, since one connection keeps
   * its order. So a test can assert that something was not pushed once it would have come.
   */
  async nextHeartbeat(timeoutMs = 10_000): Promise<void> {
    const seen = this.heartbeats;
    await waitFor(async () => this.heartbeats > seen || this.ended, { what: 'the next heartbeat on the stream', timeoutMs, intervalMs: 10 });
    if (this.ended) throw new Error('the stream ended before its next heartbeat');
  }

  /** Waits until the server ends the stream. */
  async closed(timeoutMs = 10_000): Promise<void> {
    await waitFor(async () => this.ended, { what: 'the server to end the stream', timeoutMs, intervalMs: 10 });
  }

  close(): void {
    this.req.destroy();
  }

  private read(chunk: string): void {
    this.body += chunk;
    this.buffered += chunk;
    let end: number;
    while ((end = this.buffered.indexOf('\n\n')) !== -1) {
      const block = this.buffered.slice(0, end);
      this.buffered = this.buffered.slice(end + 2);
      let event = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event: ')) event = line.slice(7);
        else if (line.startsWith('data: ')) data.push(line.slice(6));
      }
      if (data.length > 0) this.messages.push({ event, data: JSON.parse(data.join('\n')) });
      else if (block.startsWith(':')) this.heartbeats++;
    }
    this.wake();
  }

  private finish(): void {
    this.ended = true;
    this.wake();
  }

  private wake(): void {
    for (const w of [...this.waiters]) w();
  }
}

/** Publishes an event onto the system's exchange, as its producer's outbox relay would. */
export async function publishEvent<D extends EventDefinition>(sys: System, def: D, payload: EventPayload<D>): Promise<EventEnvelope> {
  const envelope: EventEnvelope = { id: randomUUID(), type: def.routingKey, occurredAt: new Date().toISOString(), correlationId: randomUUID(), causationId: null, payload };
  const conn = await amqplib.connect(TEST_AMQP_URL);
  try {
    const channel = await conn.createConfirmChannel();
    channel.publish(`${sys.ns.id}.events`, def.routingKey, Buffer.from(JSON.stringify(envelope)), { persistent: true });
    await channel.waitForConfirms();
  } finally {
    await conn.close();
  }
  return envelope;
}

/** An event as its producer's outbox writes it. */
export function envelopeOf<D extends EventDefinition>(def: D, payload: EventPayload<D>): EventEnvelope {
  return { id: randomUUID(), type: def.routingKey, occurredAt: new Date().toISOString(), correlationId: randomUUID(), causationId: null, payload };
}

/**
 * Publishes several events of one type in one broker message, as the outbox relay batches them
 * (EVENT_BATCH): the gateway's consumer takes them in together, so a handler with `handleAll`
 * gets them as one group. The same envelopes published again are a redelivery.
 */
export async function publishEventBatch(sys: System, envelopes: EventEnvelope[]): Promise<void> {
  const conn = await amqplib.connect(TEST_AMQP_URL);
  try {
    const channel = await conn.createConfirmChannel();
    channel.publish(`${sys.ns.id}.events`, envelopes[0].type, Buffer.from(JSON.stringify(envelopes)), {
      persistent: true,
      type: envelopes[0].type,
      contentType: EVENT_BATCH.contentType,
      headers: { [EVENT_BATCH.countHeader]: envelopes.length },
    });
    await channel.waitForConfirms();
  } finally {
    await conn.close();
  }
}

/** Waits until a gateway has applied the event (its Redis inbox holds it). */
export async function appliedByGateway(gateway: INestApplication, envelope: EventEnvelope): Promise<void> {
  const redis = gateway.get<Redis>(REDIS);
  await waitFor(async () => (await redis.exists(`inbox:gateway:${envelope.id}`)) === 1, { what: `the gateway to apply ${envelope.type}`, intervalMs: 10 });
}
