import type { INestApplication } from '@nestjs/common';
import type { AddressInfo } from 'node:net';
import { TEST_DATABASE_URL, TcpProxy, TestNamespace, waitFor } from '@esim/testing';
import { startEsim } from '../../services/esim/src/app';

/** Liveness, readiness that follows the database, and a clean shutdown, on a real service. */
describe('service health and shutdown', () => {
  const ns = new TestNamespace();
  let db: TcpProxy;
  let app: INestApplication;
  let base: string;

  beforeAll(async () => {
    const target = new URL(TEST_DATABASE_URL);
    db = await new TcpProxy(target.hostname, Number(target.port || 5432)).start();
    target.hostname = '127.0.0.1';
    target.port = String(db.port);
    // The service reaches Postgres through a proxy the test can cut.
    app = await startEsim(ns.env('esim', { DATABASE_URL: target.toString() }));
    base = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await db.stop();
    await ns.cleanup();
  });

  const ready = async () => {
    const res = await fetch(`${base}/health/ready`);
    return { status: res.status, body: await res.json() };
  };

  it('is live and ready while its database and broker answer', async () => {
    expect((await fetch(`${base}/health/live`)).status).toBe(200);
    expect(await ready()).toEqual({ status: 200, body: { status: 'ok', checks: { database: 'up', broker: 'up' } } });
  });

  it('reports not ready while the database is unreachable, and ready again once it is back', async () => {
    await db.cut();
    const down = await waitFor(async () => {
      const r = await ready();
      return r.status === 503 ? r : undefined;
    }, { what: 'readiness to fail' });
    expect(down.body).toEqual({ status: 'unavailable', checks: { database: 'down', broker: 'up' } });
    expect((await fetch(`${base}/health/live`)).status).toBe(200); // alive: no reason to restart it

    await db.restore();
    await waitFor(async () => (await ready()).status === 200, { what: 'readiness to recover', timeoutMs: 15_000 });
  });

  it('shuts down gracefully: close() resolves and the port stops answering', async () => {
    await app.close();
    await expect(fetch(`${base}/health/live`)).rejects.toThrow();
  });
});
