import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { INestApplication } from '@nestjs/common';
import { waitFor } from '@esim/testing';
import { HttpClient } from '../support/http-client';
import { startSystem, System } from '../support/system';
import { callPostback, postbackFor, signUpEarner, signedPostbackUrl } from './earning-support';

/** The deadlines of both doors in this test: short, so the test stays short. */
const BODY_TIMEOUT_MS = 3_000;
const HEADERS_TIMEOUT_MS = 2_000;
const REQUESTS_PER_ADDRESS = 100;
const PROVIDER_IP = '198.51.100.1';
/** How long a genuine postback may take while slow senders press on the door (alone: milliseconds). */
const ANSWER_WITHIN_MS = 2_000;

/** What became of one slow client's connection: the status line it was answered, and when it closed. */
interface SlowClient {
  socket: net.Socket;
  /** Resolves when the server has closed the connection (or the test gives up on it). */
  closed: Promise<{ status: number | null; afterMs: number }>;
}

/**
 * A client on loopback that sends `head` and then, if `dribble`, one body byte a second, never
 * finishing a 60 KB body; or sends half its headers and goes silent (`dribble` false).
 */
function slowClient(port: number, head: string, dribble: boolean): Promise<SlowClient> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = net.connect(port, '127.0.0.1');
    let answer = '';
    let timer: NodeJS.Timeout | undefined;
    const closed = new Promise<{ status: number | null; afterMs: number }>((done) => {
      socket.on('close', () => {
        clearInterval(timer);
        const m = /^HTTP\/1\.1 (\d{3})/.exec(answer);
        done({ status: m ? Number(m[1]) : null, afterMs: Date.now() - started });
      });
    });
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => (answer += d));
    socket.on('error', () => undefined);
    socket.once('connect', () => {
      socket.write(head, () => resolve({ socket, closed }));
      if (dribble) timer = setInterval(() => socket.write('a'), 1_000);
    });
    socket.once('error', reject);
  });
}

const slowBody = (path: string, from: string) =>
  `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 61440\r\nX-Forwarded-For: ${from}\r\n\r\n`;
const partialHeaders = (path: string) => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: `;

/** Connections the app's HTTP server holds open. */
const connectionsAt = (app: INestApplication) =>
  new Promise<number>((resolve, reject) => (app.getHttpServer() as Server).getConnections((err, n) => (err ? reject(err) : resolve(n))));

/** Waits for the slow clients' connections to end, at most `withinMs`; those still open count as null. */
async function outcomes(clients: SlowClient[], withinMs: number) {
  const giveUp = new Promise<null>((r) => setTimeout(() => r(null), withinMs).unref());
  const results = await Promise.all(clients.map((c) => Promise.race([c.closed, giveUp])));
  for (const c of clients) c.socket.destroy();
  return results;
}

/**
 * Security finding: slow clients on /webhooks/* used to hold every connection of the gateway's
 * forward to the ingestion service (a genuine postback then got no answer), and connections with
 * half their headers stayed open for minutes on both ports. Slow senders, partial headers and a
 * crowd from one address, while genuine postbacks are answered as usual.
 */
describe('the provider door stays open under slow clients', () => {
  let sys: System;
  let client: HttpClient;
  let userId: string;
  let webhooksPort: number;

  beforeAll(async () => {
    const limits = {
      WEBHOOK_BODY_TIMEOUT_MS: String(BODY_TIMEOUT_MS),
      HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
      HTTP_REQUEST_TIMEOUT_MS: '30000',
      WEBHOOK_REQUESTS_PER_ADDRESS: String(REQUESTS_PER_ADDRESS),
    };
    sys = await startSystem({ services: ['identity', 'rewards', 'esim', 'notifications', 'webhooks'], env: limits, gatewayEnv: { TRUST_PROXY: 'loopback', ...limits } });
    client = sys.client();
    userId = (await signUpEarner(client, sys.mail, {}, sys)).id;
    webhooksPort = (sys.apps.webhooks!.getHttpServer().address() as AddressInfo).port;
  });
  afterAll(() => sys?.stop());

  const gatewayPort = () => Number(new URL(sys.url).port);
  /** A genuine postback from the provider's address, through the gateway: its answer and how long it took. */
  const genuine = async () => {
    const started = Date.now();
    const answer = await callPostback(signedPostbackUrl(sys, 'cpx', postbackFor(userId, 5)), {
      headers: { 'x-forwarded-for': PROVIDER_IP },
      signal: AbortSignal.timeout(ANSWER_WITHIN_MS),
    }).catch((err: Error) => ({ status: 0, body: err.name, contentType: null }));
    return { status: answer.status, body: answer.body, ms: Date.now() - started };
  };

  it('answers genuine postbacks as usual while 300 senders dribble their bodies, and cuts the senders off at the body deadline', async () => {
    // Three addresses, each under its in-flight limit: only the held bodies protect the forward.
    const senders = await Promise.all(
      Array.from({ length: 300 }, (_, i) => slowClient(gatewayPort(), slowBody('/webhooks/offerwalls/cpx', `203.0.113.${1 + (i % 3)}`), true)),
    );
    // The gateway holds all their connections (and, before the door, their requests held the forward's).
    await waitFor(async () => (await connectionsAt(sys.apps.gateway!)) >= senders.length, { what: 'the gateway to hold every slow sender' });
    const answers = [];
    for (let i = 0; i < 10; i++) answers.push(await genuine());
    expect(answers.map((a) => [a.status, a.body])).toEqual(Array.from({ length: 10 }, () => [200, '1']));
    expect(Math.max(...answers.map((a) => a.ms))).toBeLessThan(ANSWER_WITHIN_MS);

    const ends = await outcomes(senders, BODY_TIMEOUT_MS + 4_000);
    expect(ends.filter((e) => e === null)).toHaveLength(0);
    expect(new Set(ends.map((e) => e!.status))).toEqual(new Set([408]));
  });

  it('closes connections that send half their headers and go silent, on the gateway and on the ingestion port', async () => {
    const silent = await Promise.all([
      ...Array.from({ length: 30 }, () => slowClient(gatewayPort(), partialHeaders('/webhooks/offerwalls/cpx'), false)),
      ...Array.from({ length: 30 }, () => slowClient(webhooksPort, partialHeaders('/webhooks/offerwalls/cpx'), false)),
    ]);
    expect((await genuine()).status).toBe(200);
    const ends = await outcomes(silent, HEADERS_TIMEOUT_MS + 4_000);
    expect(ends.filter((e) => e === null)).toHaveLength(0);
    expect(Math.max(...ends.map((e) => e!.afterMs))).toBeLessThan(HEADERS_TIMEOUT_MS + 2_500);
  });

  it('at the ingestion port too: slow bodies are cut off at their deadline, and one address gets at most its share in flight', async () => {
    const crowd = await Promise.all(
      Array.from({ length: REQUESTS_PER_ADDRESS + 20 }, () => slowClient(webhooksPort, slowBody('/webhooks/offerwalls/cpx', '203.0.113.9'), true)),
    );
    // Straight to the ingestion port, from the provider's address, as an Ingress would send it.
    const direct = await callPostback(`http://127.0.0.1:${webhooksPort}${new URL(signedPostbackUrl(sys, 'cpx', postbackFor(userId, 5))).pathname}${new URL(signedPostbackUrl(sys, 'cpx', postbackFor(userId, 5))).search}`, {
      headers: { 'x-forwarded-for': PROVIDER_IP },
      signal: AbortSignal.timeout(ANSWER_WITHIN_MS),
    });
    expect(direct.status).not.toBe(429);
    const ends = await outcomes(crowd, BODY_TIMEOUT_MS + 4_000);
    expect(ends.filter((e) => e === null)).toHaveLength(0);
    const statuses = ends.map((e) => e!.status);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20);
    expect(statuses.filter((s) => s === 408)).toHaveLength(REQUESTS_PER_ADDRESS);
  });

  it('answers a crowd from one address beyond its limit at once with 429, through the gateway', async () => {
    const crowd = await Promise.all(
      Array.from({ length: REQUESTS_PER_ADDRESS + 10 }, () => slowClient(gatewayPort(), slowBody('/webhooks/offerwalls/cpx', '203.0.113.20'), true)),
    );
    const ends = await outcomes(crowd, BODY_TIMEOUT_MS + 4_000);
    const statuses = ends.map((e) => e?.status);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
    expect(statuses.filter((s) => s === 408)).toHaveLength(REQUESTS_PER_ADDRESS);
    expect((await genuine()).status).toBe(200);
  });
});
