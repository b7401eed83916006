#!/usr/bin/env node
/**
 * Writes the public pages as HTML, so they paint before any JavaScript runs. Runs after
 * `vite build` (dist/) and `vite build --ssr src/entry-server.tsx --outDir dist/.ssr`:
 *
 * - dist/prerendered/<locale>/<page>.html: each entry of entry-server's prerenderedPages() (/,
 *   /auth, /auth?signup=true, /auth?login=true, /privacy, /terms) in each locale, rendered by React
 *   for a signed-out visitor, with its own title and meta description and <html lang dir> in that
 *   locale; #root carries data-prerendered="<locale>" so boot.tsx hydrates it instead of rendering
 *   afresh, and is followed by #prerendered-formats, the numbers and dates the page shows as
 *   formatted here (src/lib/format.ts reuses them).
 * - dist/prerendered/<locale>/shell-<route>.html: the signed-in shell (SignedInShell: header,
 *   bottom bar, skeleton) of each route under RequireAuth in each locale; #root carries data-shell
 *   (boot.tsx renders the app over it, never hydrates it). It preloads the route's page chunk.
 * - dist/index.html: the shell every other path gets (client-rendered), with the same head.
 * - dist/prerendered/manifest.json: which file answers which path, query and locale, the shells,
 *   the locales, the public pages for the sitemap and the signed-in routes robots.txt disallows
 *   (read from App.tsx's routes).
 *
 * In every document the entry script (and any other module or deferred script, e.g. the service
 * worker's registration) moves to the end of <body>: those run after parsing anyway, and this way
 * the page's content comes before any script in the HTML. The
 * entry (main.tsx) only loads the app (boot.tsx) after the first paint, so every document
 * modulepreloads the app's chunks; the pre-rendered pages also preload their locale's chunk
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
/** Open Graph wants language_TERRITORY: each locale's main market. */
const OG_LOCALES = {
  pt: 'pt_BR', es: 'es_ES', en: 'en_US', fr: 'fr_FR', de: 'de_DE', it: 'it_IT', ru: 'ru_RU', ja: 'ja_JP', ko: 'ko_KR',
  zh: 'zh_CN', ur: 'ur_PK', id: 'id_ID', fil: 'fil_PH', vi: 'vi_VN', hi: 'hi_IN', th: 'th_TH', ms: 'ms_MY', bn: 'bn_BD',
};

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

function documentFor({ title, description, body, formats = '', locale, dir = 'ltr', marks = '', preload = [] }) {
  let html = deferredScripts.reduce((doc, tag) => doc.replace(tag, ''), template);
  if (locale) {
    // The page's language and direction from the first paint (Urdu is right to left).
    html = replaceOnce(html, /<html lang="[^"]*" dir="[^"]*">/, `<html lang="${locale}" dir="${dir}">`, '<html lang dir>');
    html = replaceOnce(html, /<meta property="og:locale" content="[^"]*" \/>/, `<meta property="og:locale" content="${OG_LOCALES[locale] ?? locale}" />`, 'og:locale');
  }
  const links = [...new Set([...appChunks, ...preload])].map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`).join('\n    ');
  html = html.replace('</head>', `  ${links}\n  </head>`);
  html = replaceOnce(html, /<title>[^<]*<\/title>/, `<title>${escapeText(title)}</title>`, '<title>');
  html = replaceOnce(html, /<meta name="description" content="[^"]*" \/>/, `<meta name="description" content="${escapeAttr(description)}" />`, 'meta description');
  html = replaceOnce(html, /<meta property="og:title" content="[^"]*" \/>/, `<meta property="og:title" content="${escapeAttr(title)}" />`, 'og:title');
  html = replaceOnce(html, /<meta property="og:description" content="[^"]*" \/>/, `<meta property="og:description" content="${escapeAttr(description)}" />`, 'og:description');
  if (body !== undefined) {
    // The numbers and dates the page shows, as formatted here, after #root (data, not a script that
    // runs): hydration reuses them (src/lib/format.ts).
    html = replaceOnce(html, /<div id="root"><\/div>/, `<div id="root" ${marks}>${body}</div>${formats}`, 'empty #root');
    // The pre-rendered pages work without JavaScript (their links are plain links).
    html = html.replace(/\s*<noscript>[\s\S]*?<\/noscript>/, '');
    html = inlineStylesheets(html);
  }
  return html.replace('</body>', `  ${deferredScripts.map((tag) => tag.trim()).join('\n    ')}\n  </body>`);
}

const ssr = await import(pathToFileURL(join(ssrDir, 'entry-server.js')).href);
const outDir = join(dist, 'prerendered');
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });

/** The file name of a page: `/auth?signup=true` -> `auth-signup`, `/` -> `index`. */
const nameOf = (path, search = '') =>
  [path === '/' ? 'index' : path.slice(1).replace(/\//g, '-'), ...[...new URLSearchParams(search).keys()]].join('-');

/** The page module App.tsx lazy-loads for a signed-in route (`/esim-activation` -> EsimActivationPage), when there is one. */
function signedInModule(path) {
  const name = path.slice(1).replace(/(^|-)(\w)/g, (_m, _dash, letter) => letter.toUpperCase());
  const key = `src/pages/${name}Page.tsx`;
  return viteManifest[key] ? key : undefined;
}

const routes = ssr.routePaths();
if (routes.signedIn.length === 0) fail('found no signed-in route under RequireAuth in App.tsx');

const manifestPages = [];
const manifestShells = [];
let landing;
for (const locale of ssr.LOCALES) {
  const localeChunks = chunksOf(`src/i18n/locales/${locale}.json`);
  const dir = ssr.RTL_LOCALES.includes(locale) ? 'rtl' : 'ltr';
  // Every public entry the product links to, in every language it advertises (hreflang `?lng=`).
  const pages = await ssr.prerenderedPages(locale);
  const description = pages.find((p) => p.path === '/' && !p.search)?.description ?? fail(`no landing page in ${locale}`);
  for (const page of pages) {
    const url = `${page.path}${page.search}`;
    const body = await ssr.renderPage(url, locale);
    const formats = ssr.renderedFormatsScript();
    if (!body.includes('id="main"')) fail(`${url} (${locale}) rendered without its <main id="main"> (a spinner or an error?)`);
    const file = `prerendered/${locale}/${nameOf(page.path, page.search)}.html`;
    mkdirSync(join(dist, dirname(file)), { recursive: true });
    const marks = `data-prerendered="${locale}"`;
    writeFileSync(join(dist, file), documentFor({ ...page, body, formats, locale, dir, marks, preload: [...localeChunks, ...(page.module ? chunksOf(page.module) : [])] }));
    manifestPages.push({ path: page.path, query: Object.fromEntries(new URLSearchParams(page.search)), locale, file });
    if (locale === ssr.DEFAULT_LOCALE && url === '/') landing = page;
  }
  // The signed-in shell of every signed-in route: what a request with a session cookie paints first.
  for (const path of routes.signedIn) {
    const body = await ssr.renderShell(path, locale);
    if (!body.includes('aria-busy="true"')) fail(`the signed-in shell of ${path} (${locale}) is not marked busy`);
    const module = signedInModule(path);
    const file = `prerendered/${locale}/shell-${nameOf(path)}.html`;
    writeFileSync(
      join(dist, file),
      documentFor({ title: ssr.BRAND_NAME, description, body, locale, dir, marks: 'data-shell', preload: [...localeChunks, ...(module ? chunksOf(module) : [])] }),
    );
    manifestShells.push({ path, locale, file });
  }
  console.log(`prerender: ${locale.padEnd(3)} -> dist/prerendered/${locale}/ (${manifestPages.filter((p) => p.locale === locale).length} pages, ${routes.signedIn.length} signed-in shells)`);
}

// The shell: the head of the landing page (the product's description), an empty #root.
if (!landing) fail('no pre-rendered landing page');
writeFileSync(join(dist, 'index.html'), documentFor({ title: ssr.BRAND_NAME, description: landing.description }));

const manifest = {
  locale: ssr.DEFAULT_LOCALE,
  locales: ssr.LOCALES,
  pages: manifestPages,
  shells: manifestShells,
  sitemap: [...new Set(manifestPages.map((p) => p.path))],
  signedInRoutes: routes.signedIn,
};
writeFileSync(join(outDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
console.log(`prerender: robots.txt will disallow ${routes.signedIn.join(' ')}`);

// The server bundle was only needed to render; it is not part of the served app.
rmSync(ssrDir, { recursive: true, force: true });
