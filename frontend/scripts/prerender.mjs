#!/usr/bin/env node
/**
 * Writes the public pages as HTML, so they paint before any JavaScript runs. Runs after
 * `vite build` (dist/) and `vite build --ssr src/entry-server.tsx --outDir dist/.ssr`:
 *
 * - dist/prerendered/<page>.html: each page of entry-server's prerenderedPages() (/, /auth,
 *   /privacy, /terms) rendered by React for a signed-out visitor in the default language, with
 *   its own title and meta description; #root carries data-prerendered="<locale>" so boot.tsx
 *   hydrates it instead of rendering afresh, and is followed by #prerendered-formats, the numbers
 *   and dates the page shows as formatted here (src/lib/format.ts reuses them).
 * - dist/index.html: the shell every other path gets (client-rendered), with the same head.
 * - dist/prerendered/manifest.json: which file answers which path, the locales, the public pages
 *   for the sitemap and the signed-in routes robots.txt disallows (read from App.tsx's routes).
 *
 * In every document the entry script (and any other module or deferred script, e.g. the service
 * worker's registration) moves to the end of <body>: those run after parsing anyway, and this way
 * the page's content comes before any script in the HTML. The
 * entry (main.tsx) only loads the app (boot.tsx) after the first paint, so every document
 * modulepreloads the app's chunks; the pre-rendered pages also preload the default locale's chunk
 * and the page's own chunks, which hydration needs, and carry the stylesheet inline (the first
 * paint waits for no request).
 * The gateway (services/gateway/src/http/spa-documents.ts) fills <!--app-head--> with the
 * tags that need absolute URLs (canonical, og:url, hreflang alternates) from PUBLIC_URL.
 *   node frontend/scripts/prerender.mjs
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

// React's production server renderer: the same markup as development, without dev-only checks.
process.env.NODE_ENV ??= 'production';

const here = dirname(fileURLToPath(import.meta.url));
const dist = resolve(here, '../dist');
const ssrDir = join(dist, '.ssr');
const HEAD_MARKER = '<!--app-head-->';

function fail(message) {
  console.error(`prerender: ${message}`);
  process.exit(1);
}

if (!existsSync(join(dist, 'index.html'))) fail('no dist/index.html: run vite build first');
if (!existsSync(join(ssrDir, 'entry-server.js'))) fail('no dist/.ssr/entry-server.js: run vite build --ssr src/entry-server.tsx --outDir dist/.ssr first');

const escapeAttr = (value) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeText = (value) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Replaces exactly one match of `pattern` in `html`, or fails the build (the template changed). */
function replaceOnce(html, pattern, replacement, what) {
  const matches = html.match(new RegExp(pattern.source, `${pattern.flags.replace('g', '')}g`));
  if (matches?.length !== 1) fail(`index.html must have exactly one ${what}, found ${matches?.length ?? 0}`);
  return html.replace(pattern, replacement);
}

const template = readFileSync(join(dist, 'index.html'), 'utf8');
if (!template.includes(HEAD_MARKER)) fail(`index.html has no ${HEAD_MARKER} marker`);
// Scripts that run after parsing anyway (modules, defer): moved after the content, unchanged.
const deferredScripts = template.match(/<script\b(?=[^>]*(?:\btype="module"|\bdefer\b))[^>]*><\/script>\s*/g) ?? [];
if (!deferredScripts.some((tag) => tag.includes('type="module"'))) fail('no module entry script in dist/index.html');

const viteManifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'));
const entryKey = Object.keys(viteManifest).find((key) => viteManifest[key].isEntry) ?? fail('no entry in the Vite manifest');

/** The chunks a lazy module needs beyond the entry: its own file and its static imports, transitively. */
function chunksOf(key, found = new Set()) {
  const chunk = viteManifest[key] ?? fail(`${key} is not in the Vite manifest`);
  if (key === entryKey || found.has(chunk.file)) return found;
  found.add(chunk.file);
  for (const imported of chunk.imports ?? []) chunksOf(imported, found);
  return found;
}

/**
 * The stylesheet's rules inline. A disabled link to the same file stays: it is neither fetched nor
 * applied, but Vite's loader, which adds a lazy chunk's stylesheets unless a link to them is
 * already in the document, then does not fetch and apply the whole stylesheet a second time.
 */
function inlineStylesheets(html) {
  return html.replace(/<link rel="stylesheet"[^>]*href="\/(assets\/[^"]+\.css)"[^>]*>/g, (_tag, file) => {
    const css = readFileSync(join(dist, file), 'utf8');
    if (css.includes('</style')) fail(`${file} cannot be inlined`);
    return `<style>${css}</style>\n    <link rel="stylesheet" href="/${file}" disabled>`;
  });
}

// main.tsx is a small loader that imports the app (src/boot.tsx) after the first paint: every
// document preloads the app's chunks so that they download while the page paints.
// (Rollup may key it by its chunk name rather than its source, as other chunks import from it.)
const bootKey = viteManifest[entryKey].dynamicImports?.find((key) => key === 'src/boot.tsx' || viteManifest[key].name === 'boot') ?? fail('the entry does not import src/boot.tsx');
const appChunks = [...chunksOf(bootKey)];

function documentFor({ title, description, body, formats = '', locale, preload = [] }) {
  let html = deferredScripts.reduce((doc, tag) => doc.replace(tag, ''), template);
  const links = [...new Set([...appChunks, ...preload])].map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`).join('\n    ');
  html = html.replace('</head>', `  ${links}\n  </head>`);
  html = replaceOnce(html, /<title>[^<]*<\/title>/, `<title>${escapeText(title)}</title>`, '<title>');
  html = replaceOnce(html, /<meta name="description" content="[^"]*" \/>/, `<meta name="description" content="${escapeAttr(description)}" />`, 'meta description');
  html = replaceOnce(html, /<meta property="og:title" content="[^"]*" \/>/, `<meta property="og:title" content="${escapeAttr(title)}" />`, 'og:title');
  html = replaceOnce(html, /<meta property="og:description" content="[^"]*" \/>/, `<meta property="og:description" content="${escapeAttr(description)}" />`, 'og:description');
  if (body !== undefined) {
    // The numbers and dates the page shows, as formatted here, after #root (data, not a script that
    // runs): hydration reuses them (src/lib/format.ts).
    html = replaceOnce(html, /<div id="root"><\/div>/, `<div id="root" data-prerendered="${locale}">${body}</div>${formats}`, 'empty #root');
    // The pre-rendered pages work without JavaScript (their links are plain links).
    html = html.replace(/\s*<noscript>[\s\S]*?<\/noscript>/, '');
    html = inlineStylesheets(html);
  }
  return html.replace('</body>', `  ${deferredScripts.map((tag) => tag.trim()).join('\n    ')}\n  </body>`);
}

const ssr = await import(pathToFileURL(join(ssrDir, 'entry-server.js')).href);
const locale = ssr.DEFAULT_LOCALE;
const pages = await ssr.prerenderedPages();
const outDir = join(dist, 'prerendered');
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });

const manifestPages = [];
for (const page of pages) {
  const body = await ssr.renderPage(page.path);
  const formats = ssr.renderedFormatsScript();
  const preload = [...chunksOf(`src/i18n/locales/${locale}.json`), ...(page.module ? chunksOf(page.module) : [])];
  if (!body.includes('id="main"')) fail(`${page.path} rendered without its <main id="main"> (a spinner or an error?)`);
  const file = `prerendered/${page.path === '/' ? 'index' : page.path.slice(1).replace(/\//g, '-')}.html`;
  writeFileSync(join(dist, file), documentFor({ ...page, body, formats, locale, preload }));
  manifestPages.push({ path: page.path, file });
  console.log(`prerender: ${page.path.padEnd(10)} -> dist/${file} (${(body.length / 1024).toFixed(1)} KB of markup)`);
}

// The shell: the head of the landing page (the product's description), an empty #root.
const landing = pages.find((p) => p.path === '/') ?? fail('no pre-rendered landing page');
writeFileSync(join(dist, 'index.html'), documentFor({ title: ssr.BRAND_NAME, description: landing.description }));

const routes = ssr.routePaths();
if (routes.signedIn.length === 0) fail('found no signed-in route under RequireAuth in App.tsx');
const manifest = {
  locale,
  locales: ssr.LOCALES,
  pages: manifestPages,
  sitemap: manifestPages.map((p) => p.path),
  signedInRoutes: routes.signedIn,
};
writeFileSync(join(outDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
console.log(`prerender: robots.txt will disallow ${routes.signedIn.join(' ')}`);

// The server bundle was only needed to render; it is not part of the served app.
rmSync(ssrDir, { recursive: true, force: true });
