#!/usr/bin/env node
/**
 * Brotli (quality 11) and gzip (level 9) copies of every static file of dist/ that compresses:
 * `app.js` gets `app.js.br` and `app.js.gz` beside it, written only when smaller than the file.
 * The gateway (services/gateway/src/http/static-files.ts) answers with the best one the browser
 * accepts, so nothing is compressed per request. HTML documents are left out: the gateway adds
 * URL-dependent tags to them at start-up and compresses them then. Runs last in the build.
 *   node frontend/scripts/compress.mjs
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, extname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const dist = resolve(dirname(fileURLToPath(import.meta.url)), '../dist');
const COMPRESSIBLE = new Set(['.js', '.mjs', '.css', '.svg', '.json', '.txt', '.xml', '.webmanifest', '.ico', '.map']);

function* files(dir) {
  for (const name of readdirSync(dir)) {
    if (name.startsWith('.')) continue; // .vite (the manifest) is not served
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else if (COMPRESSIBLE.has(extname(name))) yield path;
  }
}

let count = 0;
let before = 0;
let after = 0;
for (const path of files(dist)) {
  const raw = readFileSync(path);
  const br = brotliCompressSync(raw, {
    params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT },
  });
  const gz = gzipSync(raw, { level: 9 });
  if (br.length < raw.length) writeFileSync(`${path}.br`, br);
  if (gz.length < raw.length) writeFileSync(`${path}.gz`, gz);
  count += 1;
  before += raw.length;
  after += Math.min(br.length, raw.length);
  if (process.env.VERBOSE) console.log(`${relative(dist, path)}: ${raw.length} -> br ${br.length}, gzip ${gz.length}`);
}
console.log(`compress: ${count} files, ${(before / 1024).toFixed(0)} KB -> ${(after / 1024).toFixed(0)} KB with brotli`);
