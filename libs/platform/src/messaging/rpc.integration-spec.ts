import { Controller, Module } from '@nestjs/common';
import type { INestApplication } from '@nestjs/common';
import { z } from 'zod';
import { defineRpc, RpcMeta } from '@esim/contracts';
import { TEST_AMQP_URL, TestNamespace } from '@esim/testing';
import { ServicePlatformModule } from '../bootstrap/service-platform.module';
import { startService } from '../bootstrap/start-service';
import { loadConfig } from '../config/load-config';
import { platformConfigSchema } from '../config/platform-config';
import { RequestContext } from '../context/request-context';
import { AppError } from '../errors/app-error';
import { RpcClient } from './rpc-client';
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
});
