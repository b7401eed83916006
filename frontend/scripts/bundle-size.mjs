#!/usr/bin/env node
/**
 * First-load JavaScript of the landing page, gzipped: what its document (the pre-rendered
 * dist/prerendered/index.html, else dist/index.html) loads before anything is clicked — the entry
 * script, every <link rel="modulepreload"> (the app's chunks, which the entry imports right after
 * the first paint) and their static imports, transitively from Vite's manifest. Lazy pages load
 * later and are not part of it. The default locale's chunk (texts, preloaded too) is printed on
 * its own line and not counted, as before.
 *
 * Exits 1 when the first load is above the budget. Runs at the end of the build.
 *   node frontend/scripts/bundle-size.mjs [--budget-kb 90]
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const here = dirname(fileURLToPath(import.meta.url));
const dist = resolve(here, '../dist');
const budgetArg = process.argv.indexOf('--budget-kb');
// The budget for a phone on a mobile network; see frontend/README.md ("Bundle budget").
const BUDGET_KB = budgetArg > -1 ? Number(process.argv[budgetArg + 1]) : 90;
const DEFAULT_LOCALE = 'pt';

function fail(message) {
  console.error(`bundle-size: ${message}`);
  process.exit(1);
}

const landing = [join(dist, 'prerendered/index.html'), join(dist, 'index.html')].find((file) => existsSync(file));
if (!landing) fail(`no build found at ${dist}; run "npm run build -w @esim/frontend" first`);
const html = readFileSync(landing, 'utf8');
const manifestPath = join(dist, '.vite/manifest.json');
const manifest = existsSync(manifestPath) ? JSON.parse(readFileSync(manifestPath, 'utf8')) : null;

const attr = (tag, name) => new RegExp(`\\b${name}\\s*=\\s*["']([^"']+)["']`).exec(tag)?.[1];
const toFile = (url) => url.replace(/^\//, '').split(/[?#]/)[0];

// 1. What the document loads: module entry scripts and modulepreloads.
const files = new Set();
for (const tag of html.match(/<script\b[^>]*>/g) ?? []) {
  if (attr(tag, 'type') === 'module' && attr(tag, 'src')) files.add(toFile(attr(tag, 'src')));
}
for (const tag of html.match(/<link\b[^>]*>/g) ?? []) {
  if (attr(tag, 'rel') === 'modulepreload' && attr(tag, 'href')) files.add(toFile(attr(tag, 'href')));
}
if (files.size === 0) fail(`no module script found in ${landing}`);

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

const localeFile = manifest && Object.entries(manifest).find(([key]) => key.endsWith(`/locales/${DEFAULT_LOCALE}.json`))?.[1].file;
const gz = (file) => {
  const buf = readFileSync(join(dist, file));
  return { raw: buf.length, gzip: gzipSync(buf, { level: 9 }).length };
};
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

let raw = 0;
let gzip = 0;
console.log(`First-load JavaScript of / (${landing.slice(dist.length + 1)}: entry, preloads, static imports):`);
for (const file of [...files].sort()) {
  if (!file.endsWith('.js') || file === localeFile) continue;
  const size = gz(file);
  raw += size.raw;
  gzip += size.gzip;
  console.log(`  ${file.padEnd(48)} ${kb(size.raw).padStart(10)}  gzip ${kb(size.gzip).padStart(9)}`);
}
console.log(`  ${'total'.padEnd(48)} ${kb(raw).padStart(10)}  gzip ${kb(gzip).padStart(9)}`);
if (localeFile) {
  const size = gz(localeFile);
  console.log(`Default locale chunk (${DEFAULT_LOCALE}, texts): gzip ${kb(size.gzip)}; with it: gzip ${kb(gzip + size.gzip)}`);
}

if (gzip > BUDGET_KB * 1024) fail(`first-load JavaScript is ${kb(gzip)} gzipped, above the ${BUDGET_KB} KB budget`);
console.log(`OK: ${kb(gzip)} gzipped, within the ${BUDGET_KB} KB budget.`);
