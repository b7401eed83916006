// Offer-wall postbacks signed as a wall in sandbox mode signs them: through the built provider
// modules of the webhooks service and its sandbox credentials, so the target must run its walls
// in sandbox mode. Shared by postbacks.bench.mjs and crediting-pause.mjs. See bench/README.md.
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import { root } from './product-client.mjs';

const require = createRequire(import.meta.url);
const OFFER = { id: 'bench', name: 'Survey (benchmark)', category: 'survey', points: 1 };

/**
 * `signedPath(userId)`: the request target (path and query) of a new 1-point credit from wall
 * `provider`, signed for `signingOrigin` (a wall that signs the whole URL signs the public one).
 */
export function postbackSigner(provider, signingOrigin) {
  let wall;
  let credentials;
  try {
    const { OFFERWALL_PROVIDERS } = require(path.join(root, 'services/webhooks/dist/postbacks/providers/index.js'));
    const { sandboxCredentials } = require(path.join(root, 'services/webhooks/dist/offerwalls/sandbox-credentials.js'));
    wall = OFFERWALL_PROVIDERS[provider];
    if (!wall) throw new Error(`unknown BENCH_PROVIDER ${provider}: one of ${Object.keys(OFFERWALL_PROVIDERS).join(', ')}`);
    credentials = sandboxCredentials(provider);
  } catch (err) {
    if (err.code === 'MODULE_NOT_FOUND') throw new Error('services/webhooks/dist is missing: run "npm run build" first');
    throw err;
  }
  const origin = new URL(signingOrigin).origin;
  return (userId) => {
    const url = wall.sign(credentials, { userId, transactionId: `bench-${randomUUID()}`, action: 'credit', offer: OFFER, userIp: '203.0.113.7' }, `${origin}/webhooks/offerwalls/${provider}`);
    return url.slice(origin.length);
  };
}

/**
 * A load's requests: each a new signed transaction, or (`duplicateShare` of the time) a replay of
 * one planned before it, byte for byte, as a retrying wall sends it. Signed before the load starts:
 * the provider's signing (md5, URL building) is not the product's work, and on shared cores it
 * would take CPU from what is measured.
 */
export function planPostbacks(signedPath, userId, requests, duplicateShare) {
  const sent = [];
  const planned = [];
  for (let i = 0; i < requests; i++) {
    if (sent.length > 0 && Math.random() < duplicateShare) planned.push(sent[Math.floor(Math.random() * sent.length)]);
    else {
      const route = signedPath(userId);
      sent.push(route);
      planned.push(route);
    }
  }
  return { planned, unique: new Set(sent).size };
}
