import fs from 'node:fs';
import path from 'node:path';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { CODING_SUFFIX, CODINGS, pickCoding, type Coding } from './content-coding';

interface StaticFile {
  file: string;
  /** Its extension: express's res.type() knows the media type. */
  ext: string;
  codings: Coding[];
}

/** Hashed names (`/assets/index-B1luNZOQ.js`) never change content: browsers keep them a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Serves the SPA's static files (not its HTML documents) from memory-indexed paths: `/assets/*`
 * (hashed, immutable) and the files at the root of the build (favicon, revalidated each time).
 * Each file is answered in the best precompressed copy the browser accepts (`.br`/`.gz` written
 * by frontend/scripts/compress.mjs), with `Vary: Accept-Encoding`. The index is read once at
 * start-up, so a request never touches a path outside the build; a missing asset is a 404, never
 * the app's HTML (a stale chunk must fail as a script, not parse a page).
 */
export function staticFiles(dir: string, skip: (relativePath: string) => boolean): RequestHandler {
  const files = indexFiles(dir, skip);
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const entry = files.get(req.path);
    if (!entry) {
      if (req.path.startsWith('/assets/')) return res.status(404).type('text/plain').send('Not found');
      return next();
    }
    const coding = pickCoding(req.get('accept-encoding'), entry.codings);
    res.setHeader('Vary', 'Accept-Encoding');
    res.type(entry.ext);
    if (coding) res.setHeader('Content-Encoding', coding);
    res.setHeader('Cache-Control', req.path.startsWith('/assets/') ? IMMUTABLE : 'no-cache');
    // sendFile answers HEAD, ranges and conditional requests, keeps the Content-Type set above
    // (not the .br's), and takes its ETag from the file actually sent, so each coding has its own.
    res.sendFile(coding ? entry.file + CODING_SUFFIX[coding] : entry.file, { cacheControl: false }, (err) => {
      if (err && !res.headersSent) next(err);
    });
  };
}

function indexFiles(spaDir: string, skip: (relativePath: string) => boolean): Map<string, StaticFile> {
  // sendFile takes absolute paths only; SPA_DIR may be relative to the working directory.
  const dir = path.resolve(spaDir);
  const found = new Map<string, StaticFile>();
  const walk = (current: string) => {
    for (const entry of fs.readdirSync(current, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) {
        walk(full);
        continue;
      }
      const relative = path.relative(dir, full).split(path.sep).join('/');
      if (skip(relative) || Object.values(CODING_SUFFIX).some((suffix) => entry.name.endsWith(suffix))) continue;
      found.set(`/${relative}`, { file: full, ext: path.extname(entry.name) || '.bin', codings: CODINGS.filter((c) => fs.existsSync(full + CODING_SUFFIX[c])) });
    }
  };
  walk(dir);
  return found;
}
