import { readFileSync } from 'node:fs';
import path from 'node:path';
import { LOCALES } from '@esim/contracts';
import { startSystem, System } from '../support/system';
import { rawGet } from './raw-http';

const pt = JSON.parse(readFileSync(path.resolve(__dirname, '../../frontend/src/i18n/locales/pt.json'), 'utf8'));

/** Text as the pre-renderer writes it into HTML. */
const html = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * What a search engine or a phone on a slow network gets before any script runs: the public pages
 * pre-rendered in Portuguese with their head tags, robots.txt and the sitemap. Needs the built SPA
 * (`npm run build -w @esim/frontend`).
 */
describe('delivery: pre-rendered public pages, robots.txt and the sitemap', () => {
  let sys: System;
  beforeAll(async () => {
    sys = await startSystem({ services: [], serveSpa: true });
  });
  afterAll(() => sys?.stop());

  it('answers the landing page with its heading and sign-up button already in the HTML, before any script', async () => {
    const res = await rawGet(sys.url, '/', { 'accept-encoding': 'br' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const page = res.text();
    const firstScript = page.indexOf('<script');
    expect(firstScript).toBeGreaterThan(0);

    const heading = page.search(new RegExp(`<h1[^>]*>${html(pt.landing.hero.title)}</h1>`));
    const signUp = page.search(new RegExp(`<a[^>]*href="/auth\\?signup=true"[^>]*><span>${html(pt.landing.hero.signUp)}</span></a>`));
    expect(heading).toBeGreaterThan(0);
    expect(signUp).toBeGreaterThan(heading);
    expect(firstScript).toBeGreaterThan(signUp);
    // Marked for hydration in the language it was rendered in; no session cookie came, so the
    // page knows there is no session to ask for.
    expect(page).toContain('<div id="root" data-session="none" data-prerendered="pt">');
    expect(page).toMatch(/<html lang="pt" dir="ltr">/);
  });

  it('gives the landing page a description, Open Graph, theme colour, a canonical URL and hreflang alternates for every locale', async () => {
    const page = (await rawGet(sys.url, '/')).text();
    expect(page).toContain(`<title>${html(pt.landing.documentTitle)} · Dados Grátis</title>`);
    const description = html(pt.landing.hero.subtitle.replace('{{countries}}', '180+'));
    expect(page).toContain(`<meta name="description" content="${description}" />`);
    expect(page).toContain(`<meta property="og:description" content="${description}" />`);
    expect(page).toMatch(/<meta property="og:title" content="[^"]+" \/>/);
    expect(page).toContain('<meta property="og:type" content="website" />');
    expect(page).toContain(`<meta property="og:url" content="${sys.url}/" />`);
    expect(page).toMatch(/<meta name="theme-color" content="#[0-9a-f]{6}" \/>/i);
    expect(page).toContain(`<link rel="canonical" href="${sys.url}/" />`);

    const alternates = [...page.matchAll(/<link rel="alternate" hreflang="([^"]+)" href="([^"]+)" \/>/g)].map((m): [string, string] => [m[1], m[2]]);
    expect(alternates).toHaveLength(LOCALES.length + 1);
    expect(new Map(alternates)).toEqual(
      new Map([...LOCALES.map((l): [string, string] => [l, l === 'pt' ? `${sys.url}/` : `${sys.url}/?lng=${l}`]), ['x-default', `${sys.url}/`]]),
    );
  });

  it('pre-renders the legal pages and the sign-in page too, each with its own title', async () => {
    for (const [pathname, title, text] of [
      ['/privacy', pt.legal.privacy.title, pt.legal.privacy.sections.collect.title],
      ['/terms', pt.legal.terms.title, pt.legal.terms.sections[Object.keys(pt.legal.terms.sections)[0]].title],
      ['/auth', pt.auth.login.title, pt.auth.login.submit],
    ] as const) {
      const page = (await rawGet(sys.url, pathname)).text();
      expect(page).toContain(`<title>${html(title)} · Dados Grátis</title>`);
      expect(page).toContain('data-prerendered="pt"');
      expect(page.indexOf(html(text))).toBeGreaterThan(0);
      expect(page.indexOf(html(text))).toBeLessThan(page.indexOf('<script'));
      expect(page).toContain(`<link rel="canonical" href="${sys.url}${pathname}" />`);
      expect(page).toContain(`<link rel="alternate" hreflang="ja" href="${sys.url}${pathname}?lng=ja" />`);
    }
  });

  it('leaves signed-in pages, other languages and anyone with a session to the browser', async () => {
    const dashboard = (await rawGet(sys.url, '/dashboard')).text();
    expect(dashboard).toContain('<div id="root" data-session="none"></div>');
    expect(dashboard).not.toContain('rel="canonical"');
    expect(dashboard).toMatch(/<meta name="description" content="[^"]+" \/>/);

    // ?lng=en is the English page of the same URL: the shell (the browser renders English), canonical to itself.
    const english = (await rawGet(sys.url, '/?lng=en')).text();
    expect(english).toContain('<div id="root" data-session="none"></div>');
    expect(english).toContain(`<link rel="canonical" href="${sys.url}/?lng=en" />`);
    expect(english).toContain(`<link rel="alternate" hreflang="pt" href="${sys.url}/" />`);

    // A session cookie (maybe signed in): the shell, and the SPA asks GET /api/user.
    const withSession = await rawGet(sys.url, '/', { cookie: 'theme=dark; sid=s%3Aabc.def' });
    expect(withSession.text()).toContain('<div id="root"></div>');
    expect(withSession.headers.vary).toMatch(/cookie/i);
    expect((await rawGet(sys.url, '/', { cookie: 'other_sid=1' })).text()).toContain('data-prerendered="pt"');
  });

  it('answers /robots.txt as text, disallowing the signed-in routes and the API, pointing at the sitemap', async () => {
    const res = await rawGet(sys.url, '/robots.txt');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    const lines = res.text().split('\n');
    expect(lines[0]).toBe('User-agent: *');
    for (const route of ['/dashboard', '/profile', '/task', '/history', '/admin', '/checkout', '/api/', '/webhooks/']) expect(lines).toContain(`Disallow: ${route}`);
    for (const open of ['/', '/auth', '/privacy', '/terms']) expect(lines).not.toContain(`Disallow: ${open}`);
    expect(lines).toContain(`Sitemap: ${sys.url}/sitemap.xml`);
  });

  it("answers /metrics and /health with a 404, never the app's page: they live on the gateway's operator port (test/platform/operator-port.e2e-spec.ts)", async () => {
    for (const p of ['/metrics', '/health/live', '/health/ready']) {
      const res = await rawGet(sys.url, p);
      expect(res.status).toBe(404);
      expect(res.text()).not.toMatch(/<html/i);
    }
  });

  it('answers /sitemap.xml as XML listing the public pages with their language alternates', async () => {
    const res = await rawGet(sys.url, '/sitemap.xml', { 'accept-encoding': 'gzip' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(res.headers['content-encoding']).toBe('gzip');
    const xml = res.text();
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"')).toBe(true);
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    expect(locs.sort()).toEqual([`${sys.url}/`, `${sys.url}/auth`, `${sys.url}/privacy`, `${sys.url}/terms`]);
    expect(xml.match(/<xhtml:link rel="alternate"/g)).toHaveLength(4 * (LOCALES.length + 1));
    expect(xml).toContain(`<xhtml:link rel="alternate" hreflang="ur" href="${sys.url}/privacy?lng=ur"/>`);
    expect(xml).not.toContain('/dashboard');
  });
});
