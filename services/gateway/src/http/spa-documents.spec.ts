import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Request } from 'express';
import { SpaDocuments, type PrerenderManifest } from './spa-documents';

/**
 * Which document a page request gets, on a build made of marker files (frontend/scripts/prerender.mjs
 * writes the real ones; test/delivery/public-pages.e2e-spec.ts checks them through HTTP).
 */
describe('SpaDocuments: the pre-rendered page for the URL, the language and the session', () => {
  let dir: string;
  let docs: SpaDocuments;

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spa-documents-'));
    fs.mkdirSync(path.join(dir, 'prerendered'));
    fs.writeFileSync(path.join(dir, 'index.html'), '<head><!--app-head--></head><div id="root"></div>');
    const manifest: PrerenderManifest = { locale: 'pt', locales: ['pt', 'en', 'ur'], pages: [], shells: [], sitemap: ['/', '/auth'], signedInRoutes: ['/dashboard', '/task'] };
    const write = (file: string, mark: string) => fs.writeFileSync(path.join(dir, file), `<head><!--app-head--></head><div id="root" ${mark}>${file}</div>`);
    for (const locale of manifest.locales) {
      for (const [pathname, query, name] of [
        ['/', {}, 'index'],
        ['/auth', {}, 'auth'],
        ['/auth', { signup: 'true' }, 'auth-signup'],
      ] as const) {
        const file = `prerendered/${locale}-${name}.html`;
        write(file, `data-prerendered="${locale}"`);
        manifest.pages.push({ path: pathname, query, locale, file });
      }
      for (const route of manifest.signedInRoutes) {
        const file = `prerendered/${locale}-shell${route.replace('/', '-')}.html`;
        write(file, 'data-shell');
        manifest.shells.push({ path: route, locale, file });
      }
    }
    fs.writeFileSync(path.join(dir, 'prerendered', 'manifest.json'), JSON.stringify(manifest));
    docs = new SpaDocuments(dir, 'https://app.example');
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const get = (url: string, hasSession = false, cookieLocale?: string) =>
    docs.document({ path: url.split('?')[0], url } as Request, hasSession, cookieLocale).get(null).body.toString('utf8');

  it('answers each public entry in the language its URL names, whatever the order of its parameters and campaign tags', () => {
    expect(get('/')).toContain('>prerendered/pt-index.html<');
    expect(get('/?lng=ur')).toContain('>prerendered/ur-index.html<');
    expect(get('/auth?signup=true')).toContain('>prerendered/pt-auth-signup.html<');
    expect(get('/auth?utm_source=mail&signup=true&lng=en&gclid=1')).toContain('>prerendered/en-auth-signup.html<');
    expect(get('/auth?lng=en')).toContain(`<link rel="canonical" href="https://app.example/auth?lng=en" />`);
  });

  it("paints a returning visitor's chosen language, unless the URL names another; ignores a language it does not have", () => {
    expect(get('/', false, 'en')).toContain('>prerendered/en-index.html<');
    expect(get('/', false, 'en')).toContain(`<link rel="canonical" href="https://app.example/?lng=en" />`);
    expect(get('/?lng=pt', false, 'en')).toContain('>prerendered/pt-index.html<');
    expect(get('/', false, 'xx')).toContain('>prerendered/pt-index.html<');
  });

  it('gives a query string it did not pre-render the client-rendered shell', () => {
    expect(get('/auth?mode=x')).toBe(
      `<head>${[
        '<link rel="canonical" href="https://app.example/auth" />',
        '<meta property="og:url" content="https://app.example/auth" />',
        ...['pt', 'en', 'ur'].map((l) => `<link rel="alternate" hreflang="${l}" href="https://app.example/auth${l === 'pt' ? '' : `?lng=${l}`}" />`),
        '<link rel="alternate" hreflang="x-default" href="https://app.example/auth" />',
      ].join('\n    ')}</head><div id="root" data-session="none"></div>`,
    );
  });

  it("sends a session's signed-in routes, and /, the signed-in shell in the chosen language; without a session the bare shell", () => {
    expect(get('/task', true, 'ur')).toContain('>prerendered/ur-shell-task.html<');
    expect(get('/task?tab=2', true)).toContain('>prerendered/pt-shell-task.html<');
    expect(get('/', true, 'en')).toContain('>prerendered/en-shell-dashboard.html<');
    expect(get('/task')).toBe('<head></head><div id="root" data-session="none"></div>');
    // A public page other than / keeps its pre-rendered page with a session (the browser re-renders it).
    expect(get('/auth?signup=true', true)).toContain('<div id="root" data-prerendered="pt">');
  });
});
