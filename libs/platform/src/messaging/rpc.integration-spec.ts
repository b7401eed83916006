import { Controller, Module } from '@nestjs/common';
import type { INestApplication } from '@nestjs/common';
import { z } from 'zod';
import { defineRpc, RpcMeta } from '@esim/contracts';
import { TEST_AMQP_URL, TestNamespace, waitFor } from '@esim/testing';
import amqplib from 'amqplib';
import { ServicePlatformModule } from '../bootstrap/service-platform.module';
import { startService } from '../bootstrap/start-service';
import { loadConfig } from '../config/load-config';
import { platformConfigSchema } from '../config/platform-config';
import { RequestContext } from '../context/request-context';
import { AppError } from '../errors/app-error';
import { RpcClient } from './rpc-client';
import { AmqpConnection } from './amqp-connection';
import { RpcHandler } from './rpc-handler.decorator';

const Greet = defineRpc('greeter', 'greet', z.object({ name: z.string().min(1) }), z.object({ text: z.string(), actingUser: z.string().nullable() }));
const Refuse = defineRpc('greeter', 'refuse', z.object({}), z.object({}));
const Slow = defineRpc('greeter', 'slow', z.object({ ms: z.number().int() }), z.object({}));
const Elsewhere = defineRpc('nobody', 'there', z.object({}), z.object({}));
let slowRuns = 0;

@Controller()
class GreeterRpcHandler {
  @RpcHandler(Greet)
  async greet({ name }: { name: string }, meta: RpcMeta) {
    return { text: `hello ${name}`, actingUser: meta.userId ?? null };
  }

  @RpcHandler(Refuse)
  async refuse(): Promise<never> {
    throw new AppError('already_settled', 'Not today.');
  }

  @RpcHandler(Slow)
  async slow({ ms }: { ms: number }) {
    slowRuns++;
    await new Promise((r) => setTimeout(r, ms));
    return {};
  }
}

/** RPC on the platform's own transport: one connection, direct reply-to, AppError across the wire. */
describe('RPC between processes', () => {
  const ns = new TestNamespace();
  const names = { exchange: `${ns.id}.events`, queuePrefix: `${ns.id}.` };
  let app: INestApplication;
  let client: RpcClient;

  beforeAll(async () => {
    const config = loadConfig(platformConfigSchema, ns.env('greeter'));
    @Module({})
    class GreeterModule {}
    const port = { name: 'greeter', answers: [Greet, Refuse, Slow], publishes: [], consumes: [] };
    app = await startService({
      name: 'greeter',
      module: { module: GreeterModule, imports: [ServicePlatformModule.forService({ name: 'greeter', port, config, database: false })], controllers: [GreeterRpcHandler] },
      config,
      port: 0,
    });
    client = new RpcClient({ ...names, url: TEST_AMQP_URL, timeoutMs: 3000 });
  });
  afterAll(async () => {
    await client.close();
    await app.close();
    await ns.cleanup([`${ns.id}.greeter.rpc`]);
  });

  it('answers with the validated response, the acting user travelling in meta', async () => {
    const userId = '00000000-0000-4000-8000-000000000001';
    const answer = await RequestContext.run({ correlationId: 'c-1', userId }, () => client.call(Greet, { name: 'Ana' }));
    expect(answer).toEqual({ text: 'hello Ana', actingUser: userId });
  });

  it('brings an AppError back as the same AppError, and bad input as a validation error', async () => {
    await expect(client.call(Refuse, {})).rejects.toMatchObject({ code: 'conflict', message: 'Not today.', reason: 'already_settled' });
    await expect(client.call(Greet, { name: '' })).rejects.toMatchObject({ code: 'validation' });
  });

  it('answers 503 at once when no service listens, rather than after the timeout', async () => {
    const started = Date.now();
    await expect(client.call(Elsewhere, {})).rejects.toMatchObject({ code: 'unavailable', reason: 'rpc_unroutable' });
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('answers 503 when the service is too slow', async () => {
    await expect(client.call(Slow, { ms: 1000 }, { timeoutMs: 200 })).rejects.toMatchObject({ code: 'unavailable', reason: 'rpc_timeout' });
    expect(slowRuns).toBe(1);
  });

  /**
   * RPC that survives a node: the request queue is a quorum queue (replicated; losing the node
   * that leads it elects another leader), and RPC stays at most once: requests are taken with an
   * acknowledgement, sent when the replica takes one, before its handler runs.
   */
  it('keeps its requests in a quorum queue', async () => {
    const conn = await amqplib.connect(TEST_AMQP_URL);
    try {
      const classic = await conn.createChannel();
      classic.on('error', () => undefined);
      await expect(classic.assertQueue(`${ns.id}.greeter.rpc`, { durable: true, arguments: { 'x-queue-type': 'classic' } })).rejects.toMatchObject({ code: 406 });
      const quorum = await conn.createChannel();
      await expect(quorum.assertQueue(`${ns.id}.greeter.rpc`, { durable: true, arguments: { 'x-queue-type': 'quorum' } })).resolves.toMatchObject({ queue: `${ns.id}.greeter.rpc` });
      await quorum.close();
    } finally {
      await conn.close();
    }
  });

  it('never runs a request twice when the replica running it loses the broker: the caller gets a timeout it can retry', async () => {
    slowRuns = 0;
    const answer = client.call(Slow, { ms: 1500 }, { timeoutMs: 5000 }).then(
      () => 'answered',
      (err: AppError) => err.reason,
    );
    await waitFor(() => slowRuns === 1, { what: 'the handler to start' });
    // As when the replica's pod or broker node goes: its connection ends mid-request, and the
    // broker takes back whatever it had handed this replica and not been acknowledged.
    const model = app.get(AmqpConnection).manager.connection as unknown as { connection: { stream: { destroy(err: Error): void } } };
    model.connection.stream.destroy(new Error('the replica is gone'));
    expect(await answer).toBe('rpc_timeout');
    // Reconnected (the replica serves again) and the request was not handed out a second time.
    await waitFor(async () => (await client.call(Greet, { name: 'again' }).catch(() => undefined))?.text === 'hello again', { what: 'the replica to answer again' });
    expect(slowRuns).toBe(1);
  }, 30_000);
});
