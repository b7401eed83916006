import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Request, Response } from 'express';
import { pickCoding, type Coding } from './content-coding';

/** dist/prerendered/manifest.json, written by frontend/scripts/prerender.mjs. */
export interface PrerenderManifest {
  /** The default language (a URL without `?lng=`). */
  locale: string;
  locales: string[];
  /** Each public entry in each language: the path, the query it answers (`{ signup: 'true' }`), its file. */
  pages: { path: string; query: Record<string, string>; locale: string; file: string }[];
  /** The signed-in shell (header, bottom bar, skeleton) of each signed-in route in each language. */
  shells: { path: string; locale: string; file: string }[];
  sitemap: string[];
  signedInRoutes: string[];
}

/**
 * Query parameters that never change what a page shows (campaign tags that ads and emails add):
 * a pre-rendered page still answers a URL that carries them.
 */
const IGNORED_PARAMS = /^(?:utm_\w+|gclid|fbclid|msclkid)$/;

/** Where the tags that need absolute URLs go (frontend/index.html). */
const HEAD_MARKER = '<!--app-head-->';
/** Never for crawlers: the API, provider callbacks and the local provider sandboxes. */
const MACHINE_PREFIXES = ['/api/', '/webhooks/', '/sandbox/', '/health/'];

interface Encoded {
  body: Buffer;
  etag: string;
}
/** One answer kept in memory in every coding, compressed once. */
export class Representations {
  private readonly encoded = new Map<Coding | 'identity', Encoded>();

  constructor(
    readonly type: string,
    private readonly text: string,
  ) {}

  get(coding: Coding | null): Encoded {
    const key = coding ?? 'identity';
    let found = this.encoded.get(key);
    if (!found) {
      const raw = Buffer.from(this.text, 'utf8');
      const body =
        coding === 'br'
          ? brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } })
          : coding === 'gzip'
            ? gzipSync(raw, { level: 9 })
            : raw;
      found = { body, etag: `"${createHash('sha256').update(raw).digest('base64url').slice(0, 22)}${coding ? `-${coding}` : ''}"` };
      this.encoded.set(key, found);
    }
    return found;
  }
}

/** A pre-rendered page's key: its language, path and query (sorted, so the order of parameters does not matter). */
function pageKey(locale: string, pathname: string, query: URLSearchParams): string {
  const sorted = new URLSearchParams(query);
  sorted.sort();
  const search = sorted.toString();
  return `${locale} ${pathname}${search ? `?${search}` : ''}`;
}

const escapeXml = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * The SPA's HTML documents plus /robots.txt and /sitemap.xml, made at start-up from the build
 * and PUBLIC_URL (search engines want absolute URLs, and PUBLIC_URL, never the Host header, is
 * this app's address):
 *
 * - a public entry the build pre-rendered (/, /auth, /auth?signup=true, /auth?login=true, /privacy,
 *   /terms, in every locale) goes to a visitor as its pre-rendered HTML, so it paints before any
 *   script: in the language `?lng=` names, else the one the visitor chose before (the `locale`
 *   cookie the SPA sets with its choice), else the default, so nothing switches language or
 *   direction after the first paint. A query string the build did not pre-render (other than
 *   campaign tags) gets the client-rendered shell;
 * - a request with a session cookie (maybe signed in) for a signed-in route, or for `/` (which
 *   sends a signed-in user to the dashboard), gets the signed-in shell pre-rendered for that route
 *   (the dashboard's for `/`): header, bottom bar and skeleton at first paint. The legal pages and
 *   /auth get their pre-rendered page whatever the cookie (the browser replaces what it cannot
 *   hydrate, frontend/src/boot.tsx);
 * - public pages carry a canonical URL, og:url and hreflang alternates for every locale
 *   (`?lng=<locale>`, which the SPA reads); other paths get the shell as they are;
 * - without a session cookie, #root says `data-session="none"` (frontend/src/boot.tsx).
 */
export class SpaDocuments {
  private readonly shell: string;
  /** Pre-rendered public pages by `<locale> <path>?<sorted query>`. */
  private readonly prerendered = new Map<string, string>();
  /** Signed-in shells by `<locale> <path>`. */
  private readonly shells = new Map<string, string>();
  private readonly manifest: PrerenderManifest | null;
  private readonly origin: string;
  private readonly cache = new Map<string, Representations>();
  readonly robots: Representations;
  readonly sitemap: Representations;

  constructor(dir: string, publicUrl: string) {
    this.origin = publicUrl.replace(/\/+$/, '');
    this.shell = fs.readFileSync(path.join(dir, 'index.html'), 'utf8');
    const manifestFile = path.join(dir, 'prerendered', 'manifest.json');
    this.manifest = fs.existsSync(manifestFile) ? (JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as PrerenderManifest) : null;
    for (const page of this.manifest?.pages ?? [])
      this.prerendered.set(pageKey(page.locale, page.path, new URLSearchParams(page.query)), fs.readFileSync(path.join(dir, page.file), 'utf8'));
    for (const shell of this.manifest?.shells ?? []) this.shells.set(`${shell.locale} ${shell.path}`, fs.readFileSync(path.join(dir, shell.file), 'utf8'));
    this.robots = new Representations('text/plain; charset=utf-8', this.robotsTxt());
    this.sitemap = new Representations('application/xml; charset=utf-8', this.sitemapXml());
  }

  get hasPrerenderedPages(): boolean {
    return this.prerendered.size > 0;
  }

  /** The document for a page request; `chosenLocale` is the `locale` cookie's value, if any. */
  document(req: Request, hasSession: boolean, chosenLocale?: string): Representations {
    const pathname = req.path;
    const query = new URLSearchParams(req.url.includes('?') ? req.url.slice(req.url.indexOf('?') + 1) : '');
    const m = this.manifest;
    const isPublicPage = m?.sitemap.includes(pathname) ?? false;
    // The language a public page URL names: ?lng=<locale> (any other parameter is not a page of its own).
    const lng = query.get('lng') ?? '';
    const urlLocale = isPublicPage && m?.locales.includes(lng) && lng !== m.locale ? lng : null;
    // The language to paint in: the URL's, else the visitor's earlier choice, else the default.
    const paintLocale = m ? (m.locales.includes(lng) ? lng : chosenLocale && m.locales.includes(chosenLocale) ? chosenLocale : m.locale) : '';
    const view = new URLSearchParams([...query].filter(([name]) => name !== 'lng' && !IGNORED_PARAMS.test(name)));
    const signedInPage = hasSession && (pathname === '/' || (m?.signedInRoutes.includes(pathname) ?? false));
    let file: string;
    let text: string | undefined;
    if (signedInPage) {
      const route = pathname === '/' ? '/dashboard' : pathname;
      text = this.shells.get(`${paintLocale} ${route}`);
      file = `shell ${paintLocale} ${route}`;
    } else {
      const key = pageKey(paintLocale, pathname, view);
      text = this.prerendered.get(key);
      file = `page ${key}`;
    }
    const key = `${text ? file : 'shell'} ${isPublicPage ? pathname : '*'} ${urlLocale ?? (text ? paintLocale : '')} ${hasSession}`;
    let doc = this.cache.get(key);
    if (!doc) {
      // A page painted in a language the URL does not name (the cookie's) is that language's page.
      const canonicalLocale = urlLocale ?? (text && paintLocale !== m?.locale ? paintLocale : null);
      let html = (text ?? this.shell).replace(HEAD_MARKER, isPublicPage ? this.pageHead(pathname, canonicalLocale) : '');
      // Without a session cookie there is no session: the SPA need not ask GET /api/user, whose 401
      // a browser would log as an error on every visitor's page.
      if (!hasSession) html = html.replace('<div id="root"', '<div id="root" data-session="none"');
      doc = new Representations('text/html; charset=utf-8', html);
      this.cache.set(key, doc);
    }
    return doc;
  }

  private pageUrl(pathname: string, locale: string | null): string {
    return `${this.origin}${pathname}${locale ? `?lng=${locale}` : ''}`;
  }

  private pageHead(pathname: string, locale: string | null): string {
    const m = this.manifest!;
    const self = escapeXml(this.pageUrl(pathname, locale));
    const tags = [`<link rel="canonical" href="${self}" />`, `<meta property="og:url" content="${self}" />`];
    for (const l of m.locales) tags.push(`<link rel="alternate" hreflang="${l}" href="${escapeXml(this.pageUrl(pathname, l === m.locale ? null : l))}" />`);
    tags.push(`<link rel="alternate" hreflang="x-default" href="${escapeXml(this.pageUrl(pathname, null))}" />`);
    return tags.join('\n    ');
  }

  private robotsTxt(): string {
    const disallow = [...MACHINE_PREFIXES, ...(this.manifest?.signedInRoutes ?? [])];
    return ['User-agent: *', ...disallow.map((p) => `Disallow: ${p}`), 'Allow: /', '', `Sitemap: ${this.origin}/sitemap.xml`, ''].join('\n');
  }

  private sitemapXml(): string {
    const m = this.manifest;
    const urls = (m?.sitemap ?? ['/']).map((pathname) => {
      const alternates = m
        ? [...m.locales.map((l) => [l, this.pageUrl(pathname, l === m.locale ? null : l)]), ['x-default', this.pageUrl(pathname, null)]]
            .map(([l, href]) => `\n    <xhtml:link rel="alternate" hreflang="${l}" href="${escapeXml(href)}"/>`)
            .join('')
        : '';
      return `  <url>\n    <loc>${escapeXml(this.pageUrl(pathname, null))}</loc>${alternates}\n  </url>`;
    });
    return [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
      ...urls,
      '</urlset>',
      '',
    ].join('\n');
  }
}

/** Answers with the best coding the client accepts, an ETag per coding, and 304 when it still has it. */
export function sendRepresentation(req: Request, res: Response, doc: Representations, cacheControl: string, vary = 'Accept-Encoding'): void {
  const coding = pickCoding(req.get('accept-encoding'), ['br', 'gzip']);
  const { body, etag } = doc.get(coding);
  res.setHeader('Content-Type', doc.type);
  res.setHeader('Cache-Control', cacheControl);
  res.setHeader('Vary', vary);
  res.setHeader('ETag', etag);
  if (coding) res.setHeader('Content-Encoding', coding);
  if (req.fresh) {
    res.status(304).end();
    return;
  }
  res.setHeader('Content-Length', body.length);
  res.status(200).end(req.method === 'HEAD' ? undefined : body);
}
