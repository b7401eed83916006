import fs from 'node:fs';
import path from 'node:path';
import type { Express, NextFunction, Request, Response } from 'express';
import { Logger } from '@nestjs/common';
import { LOCALE_COOKIE } from '@esim/contracts';
import { sendRepresentation, SpaDocuments } from './spa-documents';
import { staticFiles } from './static-files';

/**
 * Paths the gateway's own routes answer (its controllers, the platform's /health and /metrics):
 * the page fallback below must leave them alone. /metrics was missing, so with the SPA served
 * (the default) a Prometheus scrape of the gateway got the app's page.
 */
const SERVER_PATHS = ['/api', '/webhooks', '/sandbox', '/health', '/metrics'];

export interface SpaOptions {
  dir: string;
  /** PUBLIC_URL: absolute URLs in robots.txt, the sitemap, canonical and hreflang links. */
  publicUrl: string;
  /** The session cookie's name: its presence means "maybe signed in", so no visitor page. */
  sessionCookie: string;
}

/**
 * Serves the built SPA: hashed assets precompressed and cached for a year, the pre-rendered
 * public pages in the visitor's language, the pre-rendered signed-in shell to a request with a
 * session cookie, the client-rendered shell for every other page path (HTML is always
 * revalidated), and /robots.txt and /sitemap.xml (spa-documents.ts).
 */
export function serveSpa(app: Express, opts: SpaOptions): void {
  const log = new Logger('Spa');
  if (!fs.existsSync(path.join(opts.dir, 'index.html'))) {
    log.warn(`no built SPA at ${opts.dir}; run "npm run build" to serve the web app`);
    return;
  }
  const documents = new SpaDocuments(opts.dir, opts.publicUrl);
  if (!documents.hasPrerenderedPages) log.warn(`no pre-rendered pages in ${opts.dir}/prerendered; every page is rendered in the browser`);

  // HTML documents are answered below (with head tags added); the manifest is not public.
  app.use(staticFiles(opts.dir, (file) => file.endsWith('.html') || file.startsWith('prerendered/')));
  app.get('/robots.txt', (req, res) => sendRepresentation(req, res, documents.robots, 'public, max-age=3600'));
  app.get('/sitemap.xml', (req, res) => sendRepresentation(req, res, documents.sitemap, 'public, max-age=3600'));
  const sessionCookie = new RegExp(`(?:^|;\\s*)${opts.sessionCookie.replace(/[^\w-]/g, '\\$&')}=`);
  const localeCookie = new RegExp(`(?:^|;\\s*)${LOCALE_COOKIE}=([\\w-]+)`);
  app.get(/.*/, (req: Request, res: Response, next: NextFunction) => {
    if (SERVER_PATHS.some((p) => req.path === p || req.path.startsWith(`${p}/`))) return next();
    const cookies = req.get('cookie') ?? '';
    const hasSession = sessionCookie.test(cookies);
    // Which document a path gets depends on the session and language cookies, so shared caches must key on them.
    sendRepresentation(req, res, documents.document(req, hasSession, localeCookie.exec(cookies)?.[1]), 'no-cache', 'Accept-Encoding, Cookie');
  });
  // A pre-rendered form sent before the app took over the page is posted by the browser itself
  // (the auth forms say method="post", so the password never rides in an address). Nothing here
  // reads it: the page is sent back, as a GET of the same address, for the app to take over.
  app.post(/.*/, (req: Request, res: Response, next: NextFunction) => {
    if (SERVER_PATHS.some((p) => req.path === p || req.path.startsWith(`${p}/`))) return next();
    req.resume();
    res.redirect(303, req.originalUrl);
  });
}
