#!/usr/bin/env node
// Phone-size screenshots of the landing, auth and dashboard pages in pt, en and ur, written to
// docs/screenshots/. Needs the product running (npm start) with the local mail outbox, which is
// where the sign-up code is read from. Usage: node scripts/screenshots.mjs
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
await new Promise((r) => setTimeout(r, 1500)); // the sign-up bonus arrives through the event bus

const visitor = await browser.newContext({ baseURL: base, viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
for (const locale of ['pt', 'en', 'ur']) {
  for (const [name, ctx, url] of [['landing', visitor, '/'], ['auth', visitor, '/auth?signup=true'], ['dashboard', context, '/dashboard']]) {
    const page = await ctx.newPage();
    await page.addInitScript((lng) => localStorage.setItem('locale', lng), locale);
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForTimeout(1200);
    await page.screenshot({ path: path.join(out, `${name}-${locale}.png`) });
    await page.close();
    console.log(`docs/screenshots/${name}-${locale}.png`);
  }
}
await browser.close();
