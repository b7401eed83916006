// What every benchmark against a running product does the same way: a browser-like session, a
// fresh user signed up as the SPA does (the code read from the local mail outbox), and the
// figures' arithmetic. See bench/README.md.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const env = (name, fallback) => process.env[name] || fallback;
/** A yes/no switch: on when set to anything but empty, `0`, `false` or `no` (so `BENCH_SKIP_X=0` runs X). */
export const flag = (name) => !['', '0', 'false', 'no'].includes((process.env[name] ?? '').trim().toLowerCase());
export const GATEWAY_URL = env('GATEWAY_URL', 'http://localhost:3000').replace(/\/$/, '');
const MAIL_OUTBOX_DIR = env('MAIL_OUTBOX_DIR', path.join(root, 'var/mail-outbox'));
const SIGNUP_BONUS = 100;

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export const fmt = (n, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
export const percentile = (values, p) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

/** A browser-like session: keeps the cookie the gateway sets (`call.cookie()` reads it). */
export function session() {
  let cookie = '';
  const call = async (method, route, body) => {
    const res = await fetch(`${GATEWAY_URL}${route}`, {
      method,
      headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(cookie ? { cookie } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const set = res.headers.getSetCookie().find((c) => /^(__Host-)?sid=/.test(c));
    if (set) cookie = set.split(';')[0];
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
  call.cookie = () => cookie;
  return call;
}

/** The newest code mailed to `email`, from the local mail outbox the notifications service writes without SMTP. */
async function codeFor(email, deadline = Date.now() + 30_000) {
  const tag = email.replace(/[^a-z0-9@._-]/gi, '_');
  while (Date.now() < deadline) {
    const files = (await fs.readdir(MAIL_OUTBOX_DIR).catch(() => [])).filter((f) => f.endsWith(`${tag}.eml`)).sort();
    if (files.length > 0) {
      const mail = await fs.readFile(path.join(MAIL_OUTBOX_DIR, files.at(-1)), 'utf8');
      const code = /\b(\d{6})\b/.exec(mail.split(/\r?\n\r?\n/).slice(1).join('\n'));
      if (code) return code[1];
    }
    await sleep(200);
  }
  throw new Error(`no verification email for ${email} in ${MAIL_OUTBOX_DIR} (is SMTP_HOST unset on the notifications service?)`);
}

/**
 * Polls GET /api/user every `everyMs` until the session's balance holds at least `target` points:
 * the performance.now() of that answer, or null after `timeoutMs`.
 */
export async function pointsReached(call, target, timeoutMs, everyMs = 100) {
  const deadline = performance.now() + timeoutMs;
  do {
    if ((await call('GET', '/api/user')).points >= target) return performance.now();
    await sleep(everyMs);
  } while (performance.now() < deadline);
  return null;
}

/**
 * A fresh user signed up as the SPA does, with the sign-up bonus in; or, unless `fresh`, the
 * account BENCH_EMAIL/BENCH_PASSWORD signed in (needed when the target sends real email).
 */
export async function benchUser(call, { fresh = false } = {}) {
  if (process.env.BENCH_EMAIL && !fresh) {
    const { user } = await call('POST', '/api/login', { username: process.env.BENCH_EMAIL, password: process.env.BENCH_PASSWORD });
    return user;
  }
  const email = `bench-${randomBytes(4).toString('hex')}@example.test`;
  const password = randomBytes(12).toString('hex');
  await call('POST', '/api/register', { name: 'Bench', email, password, acceptTerms: true, acceptPrivacy: true, locale: 'en' });
  const { user } = await call('POST', '/api/verify-email', { email, code: await codeFor(email), password, name: 'Bench' });
  await pointsReached(call, SIGNUP_BONUS, 10_000);
  return user;
}

/**
 * The session's live stream (`GET /api/events`, server-sent events), as the SPA reads it. `next`
 * answers the first `user` event whose data passes `test` (with `receivedAt`, the performance.now()
 * of its arrival; the latest event already received counts), or null after `timeoutMs` (or once the
 * stream is gone).
 */
export async function liveStream(call) {
  const controller = new AbortController();
  const res = await fetch(`${GATEWAY_URL}/api/events`, { headers: { cookie: call.cookie(), accept: 'text/event-stream' }, signal: controller.signal });
  if (!res.ok) throw new Error(`GET /api/events: ${res.status} ${await res.text()}`);
  let waiter;
  let latest;
  let open = true;
  void (async () => {
    const decoder = new TextDecoder();
    let text = '';
    try {
      for await (const chunk of res.body) {
        text += decoder.decode(chunk, { stream: true });
        let end;
        while ((end = text.indexOf('\n\n')) >= 0) {
          const block = text.slice(0, end);
          text = text.slice(end + 2);
          const type = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (type !== 'user' || !data) continue;
          // When it arrived, for the benchmarks that time the moment a change became visible.
          latest = { ...JSON.parse(data), receivedAt: performance.now() };
          if (waiter && waiter.test(latest)) waiter.resolve(latest);
        }
      }
    } catch {
      // Aborted by close(), or the gateway went away: waiters time out.
    }
    open = false;
    waiter?.resolve(null);
  })();
  return {
    next(test, timeoutMs) {
      if (latest && test(latest)) return Promise.resolve(latest);
      if (!open) return Promise.resolve(null);
      return new Promise((resolve) => {
        const timer = setTimeout(() => done(null), timeoutMs);
        const done = (value) => {
          clearTimeout(timer);
          waiter = undefined;
          resolve(value);
        };
        waiter = { test, resolve: done };
      });
    },
    close: () => controller.abort(),
  };
}
