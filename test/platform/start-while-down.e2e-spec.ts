import type { INestApplication } from '@nestjs/common';
import type { AddressInfo } from 'node:net';
import { TEST_AMQP_URL, TEST_DATABASE_URL, TcpProxy, TestNamespace, waitFor } from '@esim/testing';
import { startEsim } from '../../services/esim/src/app';

/** A URL whose host and port are the proxy's. */
function through(url: string, proxy: TcpProxy): string {
  const u = new URL(url);
  u.hostname = '127.0.0.1';
  u.port = String(proxy.port);
  return u.toString();
}

/**
 * A service started while its database or its broker cannot be reached waits for them (retrying
 * with backoff) instead of failing its start (under `npm start` a service that exits stops the
 * whole product), and is ready once they answer. The proxies refuse every connection while the
 * test holds them closed; their count of refused attempts is what shows the service was trying.
 */
describe('a service started while Postgres or RabbitMQ is down', () => {
  const opened: Array<{ ns: TestNamespace; proxy: TcpProxy; app?: INestApplication }> = [];
  afterAll(async () => {
    for (const o of opened) {
      await o.app?.close().catch(() => undefined);
      await o.proxy.stop();
      await o.ns.cleanup();
    }
  });

  const ready = async (app: INestApplication) => {
    const res = await fetch(`http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}/health/ready`);
    return { status: res.status, body: (await res.json()) as { status: string; checks: Record<string, string> } };
  };

  it('waits for Postgres, then starts and is ready', async () => {
    const target = new URL(TEST_DATABASE_URL);
    const proxy = await new TcpProxy(target.hostname, Number(target.port || 5432)).start();
    const ns = new TestNamespace();
    const o: (typeof opened)[number] = { ns, proxy };
    opened.push(o);
    proxy.refuse();

    let settled: 'started' | Error | undefined;
    const starting = startEsim(ns.env('esim', { DATABASE_URL: through(TEST_DATABASE_URL, proxy) })).then(
      (app) => {
        settled = 'started';
        return (o.app = app);
      },
      (err: Error) => {
        settled = err;
        throw err;
      },
    );
    // Three attempts refused: it has retried (twice at least) rather than given up on the first.
    await waitFor(() => proxy.refused >= 3, { what: 'the service to try Postgres three times', timeoutMs: 30_000 });
    expect(settled).toBeUndefined();

    proxy.accept();
    const app = await starting;
    expect(await ready(app)).toEqual({ status: 200, body: { status: 'ok', checks: { database: 'up', broker: 'up' } } });
  });

  it('waits for RabbitMQ, not ready until connected, then ready', async () => {
    const target = new URL(TEST_AMQP_URL);
    const proxy = await new TcpProxy(target.hostname, Number(target.port || 5672)).start();
    const ns = new TestNamespace();
    const o: (typeof opened)[number] = { ns, proxy };
    opened.push(o);
    proxy.refuse();

    let settled: 'started' | Error | undefined;
    const starting = startEsim(ns.env('esim', { AMQP_URL: through(TEST_AMQP_URL, proxy) })).then(
      (app) => {
        settled = 'started';
        return (o.app = app);
      },
      (err: Error) => {
        settled = err;
        throw err;
      },
    );
    await waitFor(() => proxy.refused >= 3, { what: 'the service to try RabbitMQ three times', timeoutMs: 30_000 });
    // Still starting (or started, and then not ready): never failed.
    expect(settled instanceof Error).toBe(false);
    if (o.app) expect((await ready(o.app)).body.checks.broker).toBe('down');

    proxy.accept();
    const app = await starting;
    await waitFor(async () => (await ready(app)).status === 200, { what: 'readiness once the broker answers', timeoutMs: 30_000 });
  });
});
