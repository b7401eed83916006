import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { brotliDecompressSync } from 'node:zlib';
import { JSON_COMPRESSION_THRESHOLD, jsonCompression } from './json-compression';

/** The middleware on a real express server, read as raw bytes (fetch would decode them). */
describe('jsonCompression', () => {
  const bigJson = JSON.stringify({ items: Array.from({ length: 100 }, (_, i) => ({ id: i, name: `item ${i}` })) });
  let server: http.Server;
  let base: string;

  beforeAll(async () => {
    const app = express();
    app.use(jsonCompression());
    app.get('/big', (_req, res) => res.type('application/json').send(bigJson));
    app.get('/problem', (_req, res) => res.type('application/problem+json').send(bigJson));
    app.get('/small', (_req, res) => res.json({ ok: true }));
    app.get('/events', (_req, res) => {
      res.setHeader('Content-Type', 'text/event-stream');
      res.write(`data: ${'x'.repeat(4096)}\n\n`);
      res.end();
    });
    app.get('/text', (_req, res) => res.type('text/plain').send('y'.repeat(4096)));
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const get = (path: string) =>
    new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      http
        .get(`${base}${path}`, { headers: { 'accept-encoding': 'gzip, deflate, br' } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
        })
        .on('error', reject);
    });

  it('compresses JSON from the threshold on, with brotli when offered', async () => {
    expect(bigJson.length).toBeGreaterThan(JSON_COMPRESSION_THRESHOLD);
    for (const path of ['/big', '/problem']) {
      const res = await get(path);
      expect(res.headers['content-encoding']).toBe('br');
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(brotliDecompressSync(res.body).toString()).toBe(bigJson);
    }
  });

  it('leaves small JSON, event streams and other types as they are', async () => {
    for (const path of ['/small', '/events', '/text']) {
      const res = await get(path);
      expect(res.headers['content-encoding']).toBeUndefined();
    }
    expect((await get('/events')).body.toString()).toMatch(/^data: x+\n\n$/);
  });
});
