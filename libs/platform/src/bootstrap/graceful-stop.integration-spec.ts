import type { AddressInfo } from 'node:net';
import { Controller, Get, Module } from '@nestjs/common';
import type { INestApplication } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { TcpProxy, TEST_REDIS_URL, TestNamespace, waitFor } from '@esim/testing';
import { loadConfig } from '../config/load-config';
import { platformConfigSchema } from '../config/platform-config';
import { GracefulStop } from './graceful-stop';
import { ServicePlatformModule } from './service-platform.module';
import { startService } from './start-service';

/** A request that takes a while: in hand when the stop begins. */
@Controller()
class SlowController {
  @Get('slow')
  async slow() {
    await sleep(1_500);
    return { done: true };
  }

  @Get('quick')
  quick() {
    return { done: true };
  }
}

/**
 * A rolling update stops a replica while the balancer still sends it requests: it must keep
 * answering until the balancer has moved on (its readiness tells it to), finish what it holds,
 * and only then close. A database-less process (as the gateway), on the real broker and Redis.
 */
describe('a process stopping during a rollout', () => {
  const ns = new TestNamespace();
  let redis: TcpProxy;
  let app: INestApplication;
  let base: string;
  afterAll(async () => {
    await redis?.stop();
    await ns.cleanup();
  });

  beforeAll(async () => {
    const target = new URL(TEST_REDIS_URL);
    redis = await new TcpProxy(target.hostname, Number(target.port || 6379)).start();
    target.hostname = '127.0.0.1';
    target.port = String(redis.port);
    const config = loadConfig(platformConfigSchema, ns.env('drainer', { REDIS_URL: target.toString(), SHUTDOWN_DRAIN_MS: '800', SHUTDOWN_TIMEOUT_MS: '5000' }));
    @Module({ controllers: [SlowController] })
    class DrainerModule {}
    const module = { module: DrainerModule, imports: [ServicePlatformModule.forService({ name: 'drainer', port: { name: 'drainer', answers: [], publishes: [], consumes: [] }, config, database: false })] };
    app = await startService({ name: 'drainer', module, config, port: 0 });
    base = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
  });

  const ready = async () => {
    const res = await fetch(`${base}/health/ready`);
    return { status: res.status, body: (await res.json()) as { status: string; checks: Record<string, string> } };
  };

  it('stays ready through a Redis blip, reporting Redis degraded: a shared dependency does not take every replica out', async () => {
    // The broker connects in the background after start.
    await waitFor(async () => (await ready()).status === 200, { what: 'the process to be ready' });
    expect(await ready()).toEqual({ status: 200, body: { status: 'ok', checks: { redis: 'up', broker: 'up' } } });
    await redis.cut();
    const degraded = await waitFor(async () => {
      const r = await ready();
      return r.body.checks.redis === 'degraded' ? r : undefined;
    }, { what: 'readiness to report Redis degraded' });
    expect(degraded).toEqual({ status: 200, body: { status: 'ok', checks: { redis: 'degraded', broker: 'up' } } });
    await redis.restore();
    await waitFor(async () => (await ready()).body.checks.redis === 'up', { what: 'Redis back in readiness', timeoutMs: 15_000 });
  });

  it('on a stop: readiness fails at once, requests keep being answered through the drain, the one in hand finishes, then the port closes', async () => {
    const inHand = fetch(`${base}/slow`).then(async (r) => ({ status: r.status, body: await r.json() }));
    await sleep(100);
    const stopping = GracefulStop.of(app)!.stop(app, 'SIGTERM');

    expect(await ready()).toMatchObject({ status: 503, body: { status: 'draining' } });
    // The balancer has not moved on yet: what it still sends is answered, on a connection closed after it.
    const late = await fetch(`${base}/quick`);
    expect(late.status).toBe(200);
    expect(late.headers.get('connection')).toBe('close');

    expect(await inHand).toEqual({ status: 200, body: { done: true } });
    await stopping;
    await expect(fetch(`${base}/quick`)).rejects.toThrow();
  }, 30_000);
});
