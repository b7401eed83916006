import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { INestApplication } from '@nestjs/common';
import { waitFor } from '@esim/testing';
import { startSystem, System } from '../support/system';

/** Longer than Node's default keep-alive timeout (5 s), shorter than the configured one. */
const IDLE_MS = 6_500;

/**
 * The proxy in front (the Ingress, the gateway's own forward to the ingestion service) keeps idle
 * connections to the public ports and sends the next request on one of them. Node closes an idle
 * connection after 5 s by default, well before such a proxy (60 s): a request sent on a connection
 * the server is closing finds it closed with no answer, the "closed sockets" of the node-loss drill
 * (docs/runbook.md). The public ports keep idle connections HTTP_KEEP_ALIVE_TIMEOUT_MS (65 s).
 */
describe('keep-alive connections to the public ports', () => {
  let sys: System;
  beforeAll(async () => {
    sys = await startSystem({ services: ['webhooks'] });
  }, 180_000);
  afterAll(() => sys?.stop());

  /** Two requests on one connection, IDLE_MS apart, as a proxy reuses its idle connections: the answers' status lines. */
  async function twoRequestsApart(app: INestApplication, path: string): Promise<{ statuses: string[]; keepAlive?: string; closed: boolean }> {
    const { port } = app.getHttpServer().address() as AddressInfo;
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    let closed = false;
    socket.on('data', (chunk) => (received += chunk));
    socket.on('close', () => (closed = true));
    socket.on('error', () => undefined);
    const request = `GET ${path} HTTP/1.1\r\nHost: app.example\r\nAccept: application/json\r\n\r\n`;
    // A status line follows the previous answer's body directly, not at a line's start.
    const statuses = () => received.match(/HTTP\/1\.1 \d{3}/g) ?? [];
    socket.write(request);
    await waitFor(() => statuses().length === 1, { what: 'the first answer' });
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    if (!closed) socket.write(request);
    await waitFor(() => closed || statuses().length === 2, { what: 'the second answer or the connection closing' }).catch(() => undefined);
    socket.destroy();
    return { statuses: statuses(), keepAlive: /^Keep-Alive: (.*)\r$/im.exec(received)?.[1], closed };
  }

  it("the gateway's public port answers a request sent on a connection idle for longer than Node's default", async () => {
    const { statuses, keepAlive, closed } = await twoRequestsApart(sys.apps.gateway!, '/api/no-such-route');
    expect({ statuses, closed }).toEqual({ statuses: ['HTTP/1.1 404', 'HTTP/1.1 404'], closed: false });
    expect(keepAlive).toBe('timeout=65');
  }, 30_000);

  it("the ingestion service's public port does too (the gateway's forward and the Ingress keep connections to it)", async () => {
    const { statuses, keepAlive, closed } = await twoRequestsApart(sys.apps.webhooks!, '/webhooks/no-such-route');
    expect({ statuses, closed }).toEqual({ statuses: ['HTTP/1.1 404', 'HTTP/1.1 404'], closed: false });
    expect(keepAlive).toBe('timeout=65');
  }, 30_000);
});
