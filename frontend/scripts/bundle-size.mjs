#!/usr/bin/env node
/**
 * First-load JavaScript of the landing page, gzipped: the entry script of dist/index.html plus
 * every chunk it imports statically (transitively, from Vite's manifest) and every
 * <link rel="modulepreload"> of index.html. Lazy pages and locale chunks load later and are not
 * part of it; the default locale's chunk (fetched right after start-up) is printed separately.
 *
 * Exits 1 when the first load is above the budget (200 KB gzipped). Run after `vite build`.
 *   node frontend/scripts/bundle-size.mjs [--budget-kb 200]
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const here = dirname(fileURLToPath(import.meta.url));
const dist = resolve(here, '../dist');
const budgetArg = process.argv.indexOf('--budget-kb');
const BUDGET_KB = budgetArg > -1 ? Number(process.argv[budgetArg + 1]) : 200;
const DEFAULT_LOCALE = 'pt';

function fail(message) {
  console.error(`bundle-size: ${message}`);
  process.exit(1);
}

if (!existsSync(join(dist, 'index.html'))) fail(`no build found at ${dist}; run "npm run build -w @esim/frontend" first`);

const html = readFileSync(join(dist, 'index.html'), 'utf8');
const manifestPath = join(dist, '.vite/manifest.json');
const manifest = existsSync(manifestPath) ? JSON.parse(readFileSync(manifestPath, 'utf8')) : null;

const attr = (tag, name) => new RegExp(`\\b${name}\\s*=\\s*["']([^"']+)["']`).exec(tag)?.[1];
const toFile = (url) => url.replace(/^\//, '').split(/[?#]/)[0];

// 1. What index.html loads: module entry scripts and modulepreloads.
const files = new Set();
for (const tag of html.match(/<script\b[^>]*>/g) ?? []) {
  if (attr(tag, 'type') === 'module' && attr(tag, 'src')) files.add(toFile(attr(tag, 'src')));
}
for (const tag of html.match(/<link\b[^>]*>/g) ?? []) {
  if (attr(tag, 'rel') === 'modulepreload' && attr(tag, 'href')) files.add(toFile(attr(tag, 'href')));
}
if (files.size === 0) fail('no module script found in dist/index.html');

// 2. Their static imports, transitively (the manifest knows them exactly).
if (manifest) {
  const byFile = new Map(Object.entries(manifest).map(([key, chunk]) => [chunk.file, { key, chunk }]));
  const queue = [...files];
  while (queue.length) {
    const entry = byFile.get(queue.shift());
    for (const key of entry?.chunk.imports ?? []) {
      const file = manifest[key]?.file;
      if (file && !files.has(file)) {
        files.add(file);
        queue.push(file);
      }
    }
  }
}

const gz = (file) => {
  const buf = readFileSync(join(dist, file));
  return { raw: buf.length, gzip: gzipSync(buf, { level: 9 }).length };
};
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

let raw = 0;
let gzip = 0;
console.log('First-load JavaScript of / (entry + static imports):');
for (const file of [...files].sort()) {
  if (!file.endsWith('.js')) continue;
  const size = gz(file);
  raw += size.raw;
  gzip += size.gzip;
  console.log(`  ${file.padEnd(48)} ${kb(size.raw).padStart(10)}  gzip ${kb(size.gzip).padStart(9)}`);
}
console.log(`  ${'total'.padEnd(48)} ${kb(raw).padStart(10)}  gzip ${kb(gzip).padStart(9)}`);

if (manifest) {
  const locale = Object.entries(manifest).find(([key]) => key.endsWith(`/locales/${DEFAULT_LOCALE}.json`));
  if (locale) {
    const size = gz(locale[1].file);
    console.log(`Default locale chunk (${DEFAULT_LOCALE}, loaded on demand): gzip ${kb(size.gzip)}; with it: gzip ${kb(gzip + size.gzip)}`);
  }
}

if (gzip > BUDGET_KB * 1024) fail(`first-load JavaScript is ${kb(gzip)} gzipped, above the ${BUDGET_KB} KB budget`);
console.log(`OK: ${kb(gzip)} gzipped, within the ${BUDGET_KB} KB budget.`);
