#!/usr/bin/env node
// Load test of the offer-wall postback path against a running gateway (it starts nothing itself).
// Signs postbacks with the sandbox credentials through the built rewards provider modules, so the
// target must run its walls in sandbox mode. See bench/README.md.
import { randomBytes, randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const env = (name, fallback) => process.env[name] ?? fallback;
const GATEWAY_URL = env('GATEWAY_URL', 'http://localhost:3000').replace(/\/$/, '');
const PROVIDER = env('BENCH_PROVIDER', 'cpx');
const REQUESTS = Number(env('BENCH_REQUESTS', '5000'));
const CONNECTIONS = Number(env('BENCH_CONNECTIONS', '50'));
const DUPLICATE_SHARE = Number(env('BENCH_DUPLICATE_SHARE', '0.1'));
const MAIL_OUTBOX_DIR = env('MAIL_OUTBOX_DIR', path.join(root, 'var/mail-outbox'));
const SIGNUP_BONUS = 100;

function loadSigning() {
  const require = createRequire(import.meta.url);
  try {
    const { OFFERWALL_PROVIDERS } = require(path.join(root, 'services/rewards/dist/postbacks/providers/index.js'));
    const { sandboxCredentials } = require(path.join(root, 'services/rewards/dist/sandbox/sandbox-credentials.js'));
    const provider = OFFERWALL_PROVIDERS[PROVIDER];
    if (!provider) throw new Error(`unknown BENCH_PROVIDER ${PROVIDER}: one of ${Object.keys(OFFERWALL_PROVIDERS).join(', ')}`);
    return { provider, credentials: sandboxCredentials(PROVIDER) };
  } catch (err) {
    if (err.code === 'MODULE_NOT_FOUND') throw new Error('services/rewards/dist is missing: run "npm run build" first');
    throw err;
  }
}

/** A browser-like session: keeps the cookie the gateway sets. */
function session() {
  let cookie = '';
  return async (method, route, body) => {
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
}

/** The newest code mailed to `email`, from the local mail outbox the notifications service writes without SMTP. */
async function codeFor(email, deadline = Date.now() + 20_000) {
  const tag = email.replace(/[^a-z0-9@._-]/gi, '_');
  while (Date.now() < deadline) {
    const files = (await fs.readdir(MAIL_OUTBOX_DIR).catch(() => [])).filter((f) => f.endsWith(`${tag}.eml`)).sort();
    if (files.length > 0) {
      const mail = await fs.readFile(path.join(MAIL_OUTBOX_DIR, files.at(-1)), 'utf8');
      const code = /\b(\d{6})\b/.exec(mail.split(/\r?\n\r?\n/).slice(1).join('\n'));
      if (code) return code[1];
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no verification email for ${email} in ${MAIL_OUTBOX_DIR} (is SMTP_HOST unset on the notifications service?)`);
}

/** A fresh user, signed up as the SPA does (or BENCH_EMAIL/BENCH_PASSWORD signed in), holding only the bonus. */
async function benchUser(call) {
  if (process.env.BENCH_EMAIL) {
    const { user } = await call('POST', '/api/login', { username: process.env.BENCH_EMAIL, password: process.env.BENCH_PASSWORD });
    return user;
  }
  const email = `bench-${randomBytes(4).toString('hex')}@example.test`;
  const password = randomBytes(12).toString('hex');
  await call('POST', '/api/register', { name: 'Bench', email, password, acceptTerms: true, acceptPrivacy: true, locale: 'en' });
  const { user } = await call('POST', '/api/verify-email', { email, code: await codeFor(email), password, name: 'Bench' });
  for (let i = 0; i < 100 && (await call('GET', '/api/user')).points < SIGNUP_BONUS; i++) await new Promise((r) => setTimeout(r, 100));
  return user;
}

const { provider, credentials } = loadSigning();
const call = session();
const user = await benchUser(call);
const startPoints = (await call('GET', '/api/user')).points;
const endpoint = `${GATEWAY_URL}/webhooks/offerwalls/${PROVIDER}`;
const offer = { id: 'bench', name: 'Survey (benchmark)', category: 'survey', points: 1 };
const sent = [];

/** Each request: a new signed transaction, or (DUPLICATE_SHARE of the time) a replay of one already sent. */
function nextPath() {
  if (sent.length > 0 && Math.random() < DUPLICATE_SHARE) return sent[Math.floor(Math.random() * sent.length)];
  const url = provider.sign(credentials, { userId: user.id, transactionId: `bench-${randomUUID()}`, action: 'credit', offer, userIp: '203.0.113.7' }, endpoint);
  const route = url.slice(GATEWAY_URL.length);
  sent.push(route);
  return route;
}

console.log(`postbacks: ${REQUESTS} requests over ${CONNECTIONS} connections to ${endpoint}, ~${Math.round(DUPLICATE_SHARE * 100)}% replays, user ${user.id}`);
const started = Date.now();
const result = await autocannon({
  url: GATEWAY_URL,
  connections: CONNECTIONS,
  amount: REQUESTS,
  requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: nextPath() }) }],
});
const seconds = (Date.now() - started) / 1000;
const unique = new Set(sent).size;
const points = (await call('GET', '/api/user')).points;
const credited = points - startPoints;

console.log(`
requests        ${result.requests.total} in ${seconds.toFixed(1)} s (${result['2xx']} answered 2xx, ${result.non2xx} other, ${result.errors} errors, ${result.timeouts} timeouts)
requests/s      ${(result.requests.total / seconds).toFixed(0)}
credits/s       ${(credited / seconds).toFixed(0)}  (${unique} unique transactions, ${result.requests.total - unique} replays)
latency         p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms
ledger check    balance grew by ${credited} points for ${unique} unique transactions: ${credited === unique ? 'OK, exactly one credit each' : 'MISMATCH'}`);
process.exitCode = credited === unique && result.non2xx === 0 && result.errors === 0 ? 0 : 1;
