#!/usr/bin/env node
// Phone-size screenshots of the landing, auth, dashboard and history pages in pt, en and ur, and
// desktop-size ones of the landing page and the dashboard in pt, written to docs/screenshots/ (the README shows
// them). Needs the product running (npm start) with the local mail outbox, which is where the
// sign-up code is read from. Usage: node scripts/screenshots.mjs
import { existsSync, readdirSync, readFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const base = process.env.GATEWAY_URL ?? 'http://localhost:3000';
const outbox = process.env.MAIL_OUTBOX_DIR ?? path.join(root, 'var/mail-outbox');
const out = path.join(root, 'docs/screenshots');
mkdirSync(out, { recursive: true });

const email = `screens-${Date.now()}@example.test`;
const password = 'screenshots password';
const json = { 'content-type': 'application/json' };

async function codeFor(address) {
  for (let i = 0; i < 50; i++) {
    const file = existsSync(outbox) ? readdirSync(outbox).filter((f) => f.includes(address)).sort().pop() : undefined;
    if (file) {
      const text = readFileSync(path.join(outbox, file), 'utf8');
      const code = /\b(\d{6})\b/.exec(text.replace(/=\r?\n/g, ''));
      if (code) return code[1];
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no code mailed to ${address} in ${outbox}`);
}

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'] });
const context = await browser.newContext({ baseURL: base, viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
const api = context.request;
await api.post('/api/register', { headers: json, data: { name: 'Ana', email, password, acceptTerms: true, acceptPrivacy: true, locale: 'pt' } });
await api.post('/api/verify-email', { headers: json, data: { email, code: await codeFor(email), password, name: 'Ana' } });
// The sign-up bonus arrives through the event bus: wait until the account shows it.
for (let i = 0; ; i++) {
  const res = await api.get('/api/user');
  if (res.ok() && (await res.json()).points > 0) break;
  if (i === 300) throw new Error('the sign-up bonus never arrived');
  await new Promise((r) => setTimeout(r, 200));
}

// A few missions of different kinds from the sandbox walls (the walls without credentials), as a
// person completes them inside a wall, so /history has something to show.
const { walls } = await (await api.get('/api/offerwalls')).json();
const missions = [
  ['rapidoreach', 'sbx-survey'],
  ['lootably', 'sbx-game'],
  ['bitlabs', 'sbx-video'],
  ['torox', 'sbx-game'],
].filter(([id]) => walls.some((w) => w.id === id && w.sandbox));
for (const [id, offerId] of missions) {
  const wall = walls.find((w) => w.id === id);
  const res = await api.post(`/sandbox/offerwalls/${id}/complete`, { form: { uid: wall.uid, offerId }, maxRedirects: 0 });
  if (res.status() !== 303) throw new Error(`the ${id} sandbox wall answered ${res.status()}`);
}
for (let i = 0; ; i++) {
  const res = await api.get('/api/tasks');
  if (res.ok() && (await res.json()).length === missions.length) break;
  if (i === 300) throw new Error('the missions never arrived');
  await new Promise((r) => setTimeout(r, 200));
}

const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
const DESKTOP = { viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 };
const host = new URL(base).hostname;
const session = await context.storageState();
const visitor = await browser.newContext({ baseURL: base, ...PHONE });
const desktopVisitor = await browser.newContext({ baseURL: base, ...DESKTOP });
const desktopUser = await browser.newContext({ baseURL: base, ...DESKTOP, storageState: session });

/**
 * One page as a person sees it once it has settled: in `locale` (stored as the app stores a choice,
 * localStorage and the cookie, so the first paint is already in it), the app's code run, the page's
 * data in (no busy region left).
 */
async function shoot(ctx, url, locale, file, ready) {
  await ctx.addCookies([{ name: 'locale', value: locale, domain: host, path: '/' }]);
  const page = await ctx.newPage();
  await page.addInitScript((lng) => localStorage.setItem('locale', lng), locale);
  await page.goto(url, { waitUntil: 'load' });
  await page.locator(ready).first().waitFor({ state: 'visible' });
  // Nothing busy, no price still on its placeholder ("networkidle" never comes: the signed-in pages
  // keep the live stream open).
  await page.waitForFunction(
    () => !document.querySelector('[aria-busy="true"]') && ![...document.querySelectorAll('[data-testid^="plan-price-"]')].some((e) => e.textContent === '…'),
  );
  await page.evaluate(() => document.fonts.ready);
  await page.screenshot({ path: path.join(out, file) });
  await page.close();
  console.log(`docs/screenshots/${file}`);
}

for (const locale of ['pt', 'en', 'ur']) {
  await shoot(visitor, '/', locale, `landing-${locale}.png`, '#root[data-hydrated] h1');
  await shoot(visitor, '/auth?signup=true', locale, `auth-${locale}.png`, '#root[data-hydrated] form');
  await shoot(context, '/dashboard', locale, `dashboard-${locale}.png`, '[data-testid="points-balance"]');
  await shoot(context, '/history', locale, `history-${locale}.png`, '[data-testid="history-item"]');
}
await shoot(desktopVisitor, '/', 'pt', 'landing-desktop.png', '#root[data-hydrated] h1');
await shoot(desktopUser, '/dashboard', 'pt', 'dashboard-desktop.png', '[data-testid="points-balance"]');
await browser.close();
