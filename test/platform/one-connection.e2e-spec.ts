import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { INestApplication } from '@nestjs/common';
import amqplib from 'amqplib';
import Redis from 'ioredis';
import { AccountDeleted, EsimRpc, EventEnvelope } from '@esim/contracts';
import { EventConsumer, OperatorPort, RpcClient } from '@esim/platform';
import { asUser, TEST_AMQP_URL, TEST_REDIS_URL, TcpProxy, TestNamespace, waitFor } from '@esim/testing';
import { startEsim } from '../../services/esim/src/app';
import { startGateway } from '../../services/gateway/src/app';

/**
 * The gateway stands on the same platform as every service: one broker connection per process
 * (events, RPC server and RPC client share it), the same health and shutdown, and an event
 * consumer of its own whose inbox, the gateway having no database, is in Redis.
 */
describe('one platform for the services and the gateway', () => {
  const ns = new TestNamespace();
  const names = { exchange: `${ns.id}.events`, queuePrefix: `${ns.id}.` };
  let esimLink: TcpProxy;
  let gatewayLink: TcpProxy;
  let esim: INestApplication;
  let gateway: INestApplication;
  let redis: Redis;
  let gatewayClosed = false;

  const throughProxy = async () => {
    const target = new URL(TEST_AMQP_URL);
    const proxy = await new TcpProxy(target.hostname, Number(target.port || 5672)).start();
    target.hostname = '127.0.0.1';
    target.port = String(proxy.port);
    return { proxy, url: target.toString() };
  };
  /** Where /health answers: the operator port of a process that has one (the gateway), else its HTTP port. */
  const base = (app: INestApplication) => `http://127.0.0.1:${OperatorPort.portOf(app) ?? (app.getHttpServer().address() as AddressInfo).port}`;

  beforeAll(async () => {
    const e = await throughProxy();
    const g = await throughProxy();
    esimLink = e.proxy;
    gatewayLink = g.proxy;
    esim = await startEsim(ns.env('esim', { AMQP_URL: e.url }));
    gateway = await startGateway(ns.env('gateway', { AMQP_URL: g.url, SERVE_SPA: 'false' }));
    redis = new Redis(TEST_REDIS_URL);
  });
  afterAll(async () => {
    if (!gatewayClosed) await gateway?.close();
    await esim?.close();
    redis?.disconnect();
    await esimLink?.stop();
    await gatewayLink?.stop();
    await ns.cleanup();
  });

  it('opens one broker connection per process, used by its RPC client, RPC server, relay and consumer', async () => {
    // The gateway's RPC client calls esim's RPC server: both sides on their process's one connection.
    await expect(asUser(randomUUID(), () => gateway.get(RpcClient).call(EsimRpc.getGiftSummary, {}))).resolves.toMatchObject({ dataGiftedGB: 0 });
    expect(esimLink.accepted).toBe(1);
    expect(gatewayLink.accepted).toBe(1);
    expect(esimLink.openConnections).toBe(1);
    expect(gatewayLink.openConnections).toBe(1);
  });

  it('gives the gateway the same health endpoints, checking Redis and the broker', async () => {
    expect((await fetch(`${base(gateway)}/health/live`)).status).toBe(200);
    const ready = await fetch(`${base(gateway)}/health/ready`);
    expect({ status: ready.status, body: await ready.json() }).toEqual({ status: 200, body: { status: 'ok', checks: { redis: 'up', broker: 'up' } } });
  });

  it('lets the gateway consume events from a queue of its own, once each: its inbox is in Redis', async () => {
    const envelope: EventEnvelope = {
      id: randomUUID(),
      type: AccountDeleted.routingKey,
      occurredAt: new Date().toISOString(),
      correlationId: randomUUID(),
      causationId: null,
      payload: { userId: randomUUID(), deletedAt: new Date().toISOString() },
    };
    const conn = await amqplib.connect(TEST_AMQP_URL);
    const ch = await conn.createConfirmChannel();
    const deliver = async () => {
      ch.publish(names.exchange, AccountDeleted.routingKey, Buffer.from(JSON.stringify(envelope)), { persistent: true, mandatory: true });
      await ch.waitForConfirms();
    };
    const stats = gateway.get(EventConsumer).stats;
    const before = { ...stats };

    await deliver();
    await waitFor(async () => (await redis.exists(`${ns.id}:inbox:gateway:${envelope.id}`)) === 1, { what: 'the gateway inbox entry' });
    expect(await redis.ttl(`${ns.id}:inbox:gateway:${envelope.id}`)).toBeGreaterThan(3600);

    await deliver(); // the same event again, as a republish after a relay crash would bring it
    await waitFor(() => stats.duplicates === before.duplicates + 1, { what: 'the duplicate to be skipped' });
    expect(stats.applied).toBe(before.applied + 1);
    expect((await ch.checkQueue(`${ns.id}.gateway.events`)).consumerCount).toBe(1);
    await conn.close();
  });

  it('shuts the gateway down gracefully, closing its one connection', async () => {
    const url = base(gateway);
    await gateway.close();
    gatewayClosed = true;
    await expect(fetch(`${url}/health/live`)).rejects.toThrow();
    await waitFor(() => gatewayLink.openConnections === 0, { what: 'the broker connection to close' });
  });
});
