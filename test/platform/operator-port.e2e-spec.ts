import type { AddressInfo } from 'node:net';
import type { INestApplication } from '@nestjs/common';
import { OperatorPort } from '@esim/platform';
import { rawGet } from '../delivery/raw-http';
import { startSystem, System } from '../support/system';

/** amqplib's promise-API channel (untyped module): its checkQueue is the call a queue-depth read makes. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { Channel } = require('amqplib/lib/channel_model') as { Channel: { prototype: { checkQueue(queue: string): Promise<unknown> } } };

const OPERATOR_PATHS = ['/metrics', '/health/live', '/health/ready'];
/** The same paths as Express' router would also match them: another case, a trailing or doubled slash, percent-encoded. */
const DISGUISED = ['/METRICS', '/metrics/', '/Health/Ready', '/health/live/', '/%6Detrics'];

const publicUrl = (app: INestApplication) => `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
const opsUrl = (app: INestApplication) => `http://127.0.0.1:${OperatorPort.portOf(app)}`;

/**
 * The gateway (with the SPA served, whose page fallback answers unknown paths) and the webhooks
 * ingestion service have public HTTP ports: /metrics and /health/* answer only on their internal
 * operator port (OPS_PORT), which answers nothing else.
 */
describe('operator port of the gateway and the ingestion service', () => {
  let sys: System;
  beforeAll(async () => {
    // Queue depths read once at start and then not for ten minutes: any checkQueue during the test is a scrape's.
    sys = await startSystem({ services: ['webhooks'], serveSpa: true, env: { METRICS_QUEUE_REFRESH_MS: '600000' } });
  });
  afterAll(() => sys?.stop());

  for (const process of ['gateway', 'webhooks'] as const) {
    it(`${process}: the public port answers 404 not_found for /metrics and /health/*, never the app's page`, async () => {
      for (const p of [...OPERATOR_PATHS, ...DISGUISED]) {
        const res = await rawGet(publicUrl(sys.apps[process]!), p);
        expect({ path: p, status: res.status }).toEqual({ path: p, status: 404 });
        expect(res.headers['content-type']).toMatch(/^application\/json/);
        expect(JSON.parse(res.text())).toMatchObject({ code: 'not_found' });
        expect(res.text()).not.toMatch(/<html|process_cpu/i);
      }
    });

    it(`${process}: the operator port answers /metrics, /health/live and /health/ready, and nothing else`, async () => {
      const ops = opsUrl(sys.apps[process]!);
      expect(OperatorPort.portOf(sys.apps[process]!)).not.toBe((sys.apps[process]!.getHttpServer().address() as AddressInfo).port);
      const metrics = await rawGet(ops, '/metrics');
      expect(metrics.status).toBe(200);
      expect(metrics.headers['content-type']).toMatch(/^text\/plain;.*version=0\.0\.4/);
      expect(metrics.text()).toMatch(new RegExp(`^process_cpu_user_seconds_total\\{service="${process}"\\} `, 'm'));
      const live = await rawGet(ops, '/health/live');
      expect(live.status).toBe(200);
      expect(JSON.parse(live.text())).toEqual({ status: 'ok' });
      const ready = await rawGet(ops, '/health/ready');
      expect(ready.status).toBe(200);
      expect(JSON.parse(ready.text())).toMatchObject({ status: 'ok' });
      for (const p of ['/', '/api/user', '/webhooks/stripe', '/robots.txt', '/dashboard']) {
        const res = await rawGet(ops, p);
        expect({ path: p, status: res.status }).toEqual({ path: p, status: 404 });
        expect(res.text()).not.toMatch(/<html/i);
      }
    });
  }

  it('a scrape of either operator port makes no broker call', async () => {
    const checkQueue = jest.spyOn(Channel.prototype, 'checkQueue');
    try {
      for (let i = 0; i < 3; i++) {
        for (const process of ['gateway', 'webhooks'] as const) {
          const res = await rawGet(opsUrl(sys.apps[process]!), '/metrics');
          expect(res.status).toBe(200);
        }
        await new Promise((r) => setTimeout(r, 1100)); // past any per-scrape cache
      }
      expect(checkQueue).not.toHaveBeenCalled();
    } finally {
      checkQueue.mockRestore();
    }
  });

  it('the gateway still serves the app on its public port', async () => {
    const page = await rawGet(sys.url, '/');
    expect(page.status).toBe(200);
    expect(page.text()).toMatch(/<html/i);
  });
});
