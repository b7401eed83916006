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
 * pre-rendered in every language with their head tags, the signed-in shell, robots.txt and the sitemap. Needs the built SPA
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

  it('keeps a sign-in sent before the app took over out of the address: the form posts, and the page comes back as a GET', async () => {
    const page = (await rawGet(sys.url, '/auth?login=true')).text();
    expect(page).toMatch(/<form [^>]*method="post"/);
    const sent = await fetch(`${sys.url}/auth?login=true`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: 'ana@example.test', password: 'not in any address 1' }).toString(),
    });
    expect([sent.status, sent.headers.get('location')]).toEqual([303, '/auth?login=true']);
  });

  it('pre-renders every public entry in every language: the landing page per ?lng=, the sign-up and sign-in views, Urdu right to left', async () => {
    for (const locale of LOCALES) {
      const texts = JSON.parse(readFileSync(path.resolve(__dirname, `../../frontend/src/i18n/locales/${locale}.json`), 'utf8'));
      const landing = (await rawGet(sys.url, locale === 'pt' ? '/' : `/?lng=${locale}`)).text();
      expect(landing).toContain(`<div id="root" data-session="none" data-prerendered="${locale}">`);
      expect(landing).toContain(`<html lang="${locale}" dir="${locale === 'ur' ? 'rtl' : 'ltr'}">`);
      expect(landing.search(new RegExp(`<h1[^>]*>${html(texts.landing.hero.title)}</h1>`))).toBeGreaterThan(0);
      expect(landing).toContain(`<link rel="canonical" href="${sys.url}/${locale === 'pt' ? '' : `?lng=${locale}`}" />`);

      const signup = (await rawGet(sys.url, `/auth?signup=true&lng=${locale}`)).text();
      expect(signup).toContain(`data-prerendered="${locale}"`);
      expect(signup).toContain(`<title>${html(texts.auth.signup.title)} · Dados Grátis</title>`);
      expect(signup.indexOf(html(texts.auth.signup.submit))).toBeGreaterThan(0);
      expect(signup.indexOf(html(texts.auth.signup.submit))).toBeLessThan(signup.indexOf('<script'));
    }
    // The landing page's sign-up target, and the sign-in link, in the default language; campaign
    // tags and the order of parameters do not matter.
    for (const url of ['/auth?signup=true', '/auth?utm_source=ads&signup=true', '/auth?signup=true&lng=pt&gclid=x']) {
      const page = (await rawGet(sys.url, url)).text();
      expect(page).toContain('data-prerendered="pt"');
      expect(page).toContain(`<title>${html(pt.auth.signup.title)} · Dados Grátis</title>`);
    }
    const login = (await rawGet(sys.url, '/auth?login=true')).text();
    expect(login).toContain('data-prerendered="pt"');
    expect(login.indexOf(html(pt.auth.login.submit))).toBeGreaterThan(0);
  });

  it("sends a returning visitor the page in the language they chose (the locale cookie), unless the URL names one", async () => {
    const en = JSON.parse(readFileSync(path.resolve(__dirname, '../../frontend/src/i18n/locales/en.json'), 'utf8'));
    const english = await rawGet(sys.url, '/', { cookie: 'locale=en' });
    expect(english.text()).toContain('data-prerendered="en"');
    expect(english.text()).toContain('<html lang="en" dir="ltr">');
    expect(english.text()).toContain(`<link rel="canonical" href="${sys.url}/?lng=en" />`);
    expect(english.text().indexOf(html(en.landing.hero.title))).toBeGreaterThan(0);
    expect(english.headers.vary).toMatch(/cookie/i);
    // Urdu from the first paint: its direction too.
    expect((await rawGet(sys.url, '/privacy', { cookie: 'theme=dark; locale=ur' })).text()).toContain('<html lang="ur" dir="rtl">');
    // The URL's language wins over the cookie; an unknown cookie value is ignored.
    expect((await rawGet(sys.url, '/?lng=pt', { cookie: 'locale=en' })).text()).toContain('data-prerendered="pt"');
    expect((await rawGet(sys.url, '/', { cookie: 'locale=xx' })).text()).toContain('data-prerendered="pt"');
  });

  it('sends a request with a session cookie the signed-in shell of the page it asked for: header, bottom bar, a busy skeleton', async () => {
    const cookie = 'theme=dark; sid=s%3Aabc.def';
    for (const [pathname, active] of [
      ['/dashboard', '/dashboard'],
      ['/history', '/history'],
      ['/', '/dashboard'],
    ] as const) {
      const res = await rawGet(sys.url, pathname, { cookie });
      const page = res.text();
      expect(res.headers.vary).toMatch(/cookie/i);
      expect(page).toContain('<div id="root" data-shell>');
      expect(page).toMatch(/<header class="app-header">/);
      expect(page).toMatch(/<main id="main" aria-busy="true"[^>]*>/);
      expect(page).toContain(`<p role="status" class="visually-hidden">${html(pt.common.loading)}</p>`);
      expect(page).toMatch(new RegExp(`<a aria-current="page" href="${active}"`));
      expect(page.indexOf('<nav')).toBeLessThan(page.indexOf('<script'));
      // Shells are never hydrated nor indexed: no data-prerendered, no canonical of their own.
      expect(page).not.toContain('data-prerendered');
    }
    // Pages without the bottom bar have none in their shell either; the remembered language applies.
    const iccid = (await rawGet(sys.url, '/iccid', { cookie: `${cookie}; locale=ur` })).text();
    expect(iccid).toContain('<html lang="ur" dir="rtl">');
    expect(iccid).toContain('data-shell');
    expect(iccid).not.toContain('<nav');
  });

  it('leaves unknown query strings and signed-in pages without a session to the browser', async () => {
    const dashboard = (await rawGet(sys.url, '/dashboard')).text();
    expect(dashboard).toContain('<div id="root" data-session="none"></div>');
    expect(dashboard).not.toContain('rel="canonical"');
    expect(dashboard).toMatch(/<meta name="description" content="[^"]+" \/>/);

    // A view the build did not pre-render: the shell, canonical to the page in its language.
    const unknown = (await rawGet(sys.url, '/auth?mode=other&lng=en')).text();
    expect(unknown).toContain('<div id="root" data-session="none"></div>');
    expect(unknown).toContain(`<link rel="canonical" href="${sys.url}/auth?lng=en" />`);
    expect(unknown).toContain(`<link rel="alternate" hreflang="pt" href="${sys.url}/auth" />`);

    // Another cookie that merely ends in the session cookie's name is no session.
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
