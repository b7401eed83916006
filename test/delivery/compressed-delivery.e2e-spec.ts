import { signUp } from '../support/accounts';
import { startSystem, System } from '../support/system';
import { rawGet } from './raw-http';

/**
 * The built SPA over the gateway as a phone browser fetches it: static files in the best
 * precompressed coding the browser accepts, immutable caching for hashed assets, HTML always
 * revalidated, and the API's larger JSON answers compressed too. Needs `npm run build -w @esim/frontend`.
 */
describe('delivery: compressed static files and JSON', () => {
  let sys: System;
  /** The app's main chunk (the entry only loads it after the first paint). */
  let appScript: string;
  let stylesheet: string;

  beforeAll(async () => {
    // Every service: a signed-in user's offer walls are the large JSON answer.
    sys = await startSystem({ serveSpa: true });
    const html = (await rawGet(sys.url, '/')).text();
    appScript = /<link rel="modulepreload"[^>]*href="(\/assets\/boot-[\w-]+\.js)"/.exec(html)?.[1] ?? '';
    // Pre-rendered pages inline the stylesheet; the client-rendered shell links it.
    const shell = (await rawGet(sys.url, '/dashboard')).text();
    stylesheet = /<link rel="stylesheet"[^>]*href="(\/assets\/[^"]+\.css)"/.exec(shell)?.[1] ?? '';
  });
  afterAll(() => sys?.stop());

  it('answers a hashed asset in brotli or gzip by Accept-Encoding, identical once decoded, cached for a year', async () => {
    expect(appScript).toMatch(/^\/assets\/boot-[\w-]+\.js$/);
    const plain = await rawGet(sys.url, appScript);
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['content-type']).toMatch(/^text\/javascript/);
    expect(plain.body.length).toBeGreaterThan(50_000);

    const etags = new Set([plain.headers.etag]);
    for (const [accept, coding] of [
      ['br', 'br'],
      ['gzip', 'gzip'],
      // What Chromium sends: both accepted with the same weight, so the smaller one.
      ['gzip, deflate, br, zstd', 'br'],
      ['br;q=0.1, gzip;q=0.9', 'gzip'],
    ] as const) {
      const res = await rawGet(sys.url, appScript, { 'accept-encoding': accept });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe(coding);
      expect(res.headers['content-type']).toBe(plain.headers['content-type']);
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(Number(res.headers['content-length'])).toBe(res.body.length);
      expect(res.body.length).toBeLessThan(plain.body.length / 2.5);
      expect(res.decoded().equals(plain.body)).toBe(true);
      etags.add(res.headers.etag);
    }
    // Each coding is its own representation: a cache must not answer one for another.
    expect(etags.size).toBe(3);
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
  });

  it('revalidates a compressed asset by its ETag, and compresses the stylesheet too', async () => {
    const first = await rawGet(sys.url, stylesheet, { 'accept-encoding': 'br' });
    expect(first.headers['content-encoding']).toBe('br');
    expect(first.headers['content-type']).toMatch(/^text\/css/);
    const again = await rawGet(sys.url, stylesheet, { 'accept-encoding': 'br', 'if-none-match': String(first.headers.etag) });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    const gzip = await rawGet(sys.url, stylesheet, { 'accept-encoding': 'gzip' });
    expect(gzip.decoded().equals(first.decoded())).toBe(true);
  });

  it('answers a missing asset 404 instead of the app page, and never serves the build internals', async () => {
    const missing = await rawGet(sys.url, '/assets/index-doesnotexist.js', { 'accept-encoding': 'br' });
    expect(missing.status).toBe(404);
    expect(missing.text()).not.toContain('<html');
    for (const internal of ['/.vite/manifest.json', '/prerendered/manifest.json', '/prerendered/index.html', '/prerendered/en/index.html', '/prerendered/pt/shell-dashboard.html']) {
      const res = await rawGet(sys.url, internal);
      expect(res.text()).not.toContain('"signedInRoutes"');
      expect(res.text()).not.toContain('data-prerendered');
      expect(res.text()).not.toContain('data-shell');
    }
  });

  it('sends HTML compressed as well, never cached without revalidation', async () => {
    const plain = await rawGet(sys.url, '/');
    const br = await rawGet(sys.url, '/', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(br.headers['cache-control']).toBe('no-cache');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.decoded().equals(plain.body)).toBe(true);
    expect(br.body.length).toBeLessThan(plain.body.length / 2.5);
  });

  it('compresses JSON answers of 1 KB and more, and leaves small ones alone', async () => {
    const client = sys.client();
    await signUp(client, sys.mail);
    const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    // The offer walls a signed-in user can open: well above 1 KB.
    const big = await rawGet(sys.url, '/api/offerwalls', { 'accept-encoding': 'gzip, br', cookie });
    expect(big.status).toBe(200);
    expect(big.headers['content-type']).toMatch(/^application\/json/);
    expect(big.headers['content-encoding']).toBe('br');
    expect(big.headers.vary).toMatch(/accept-encoding/i);
    expect(big.decoded().length).toBeGreaterThanOrEqual(1024);
    expect(big.body.length).toBeLessThan(big.decoded().length);
    const gzip = await rawGet(sys.url, '/api/offerwalls', { 'accept-encoding': 'gzip', cookie });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    const plain = await rawGet(sys.url, '/api/offerwalls', { cookie });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(gzip.text())).toEqual(JSON.parse(plain.text()));
    expect(JSON.parse(big.text())).toEqual(JSON.parse(plain.text()));

    const small = await rawGet(sys.url, '/api/captcha/config', { 'accept-encoding': 'gzip, br' });
    expect(small.status).toBe(200);
    expect(small.body.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.text())).toHaveProperty('provider');
  });
});
