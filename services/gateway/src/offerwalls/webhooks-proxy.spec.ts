import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { streamTo, upstreamOf } from './webhooks-proxy';

const listen = async (server: http.Server): Promise<string> => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};
const close = (server: http.Server) => new Promise<void>((resolve) => server.close(() => resolve()));

/**
 * The forward the /sandbox proxy and the provider callbacks share, between real HTTP servers: an
 * upstream that drops a pooled keep-alive connection just as the next request arrives on it (as
 * a busy emulators' process did) loses nobody's safe request, and never has a callback sent twice.
 */
describe('the gateway forward to an upstream that drops pooled connections', () => {
  let upstream: http.Server;
  let proxy: http.Server;
  let proxyUrl: string;
  const seen: string[] = [];

  beforeAll(async () => {
    const served = new WeakMap<Socket, number>();
    upstream = http.createServer((req: IncomingMessage, res: ServerResponse) => {
      const n = (served.get(req.socket) ?? 0) + 1;
      served.set(req.socket, n);
      // The second request on a connection finds it closed: nothing is answered.
      if (n > 1) return req.socket.destroy();
      seen.push(`${req.method} ${req.url}`);
      req.resume();
      req.on('end', () => res.end('ok'));
    });
    const to = upstreamOf(await listen(upstream), 'TestForward');
    proxy = http.createServer((req, res) => streamTo(req, res, { target: req.url ?? '/', clientIp: '127.0.0.1' }, to));
    proxyUrl = await listen(proxy);
  });
  afterAll(async () => {
    await close(proxy);
    await close(upstream);
  });

  const call = async (method: string, path: string, body?: string) => {
    const res = await fetch(`${proxyUrl}${path}`, { method, body });
    return { status: res.status, text: await res.text() };
  };

  it('sends a GET again on a fresh connection when the pooled one was closed under it', async () => {
    seen.length = 0;
    await expect(call('GET', '/sandbox/stripe/pix/pi_1/qr.png?n=1')).resolves.toEqual({ status: 200, text: 'ok' });
    // The pooled connection is reused, dropped by the upstream, and the GET goes out again.
    await expect(call('GET', '/sandbox/stripe/pix/pi_1/qr.png?n=2')).resolves.toEqual({ status: 200, text: 'ok' });
    expect(seen).toEqual(['GET /sandbox/stripe/pix/pi_1/qr.png?n=1', 'GET /sandbox/stripe/pix/pi_1/qr.png?n=2']);
  });

  it('answers 503 for a POST that met a dropped connection, without sending it twice', async () => {
    seen.length = 0;
    await expect(call('GET', '/warm')).resolves.toEqual({ status: 200, text: 'ok' });
    await expect(call('POST', '/webhooks/offerwalls', 'a=1')).resolves.toEqual({ status: 503, text: 'unavailable' });
    expect(seen).toEqual(['GET /warm']);
  });
});
