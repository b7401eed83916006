import { z } from 'zod';
import { envBoolean, envInt, envList, platformConfigSchema } from '@esim/platform';

const secret = (meaning: string) => z.string().optional().describe(meaning);
const allowedIps = (wall: string, extra = '') =>
  envList().describe(
    `Source IPs allowed to call the ${wall} postback (comma-separated addresses or CIDR ranges; empty: any). Checked in addition to the signature.${extra}`,
  );

export const webhooksConfigSchema = platformConfigSchema
  .extend({
  // Its answers wait for a statement, and a wall's batch often follows a quiet spell: the two
  // statements in flight (postback-ingestion.service.ts) and the outbox relay keep their
  // connections. With none kept, the service would open two at every burst after a quiet spell,
  // each delaying its first answer by a connection's set-up.
  DB_POOL_MIN: envInt(3, 0).describe(
    "Connections the pool keeps open however long they sit unused (at most DB_POOL_SIZE): the two batch statements in flight and the outbox relay's, so a wall's burst after a quiet spell is answered on warm connections.",
  ),
  WEBHOOKS_PORT: z.coerce
    .number()
    .int()
    .min(0)
    .optional()
    .describe(
      'HTTP port of the ingestion service, which providers reach: provider callbacks under /webhooks only, neither /metrics nor /health/* (OPS_PORT) (default: HEALTH_PORT, else 3106). The gateway streams /webhooks here (its WEBHOOKS_URL).',
    ),
  OPS_PORT: envInt(3108).describe('Internal operator port of the ingestion service: /health/live, /health/ready and /metrics, and nothing else (0 picks a free port). Never routed by the Ingress.'),
  PUBLIC_URL: z
    .string()
    .url()
    .default('http://localhost:3000')
    .describe(
      "The origin providers call (the gateway's public URL, or this service's own public address when it is exposed directly). A callback's full URL is this origin plus the request target, byte for byte: BitLabs signs it.",
    ),
  TRUST_PROXY: z
    .string()
    .default('loopback')
    .describe(
      "Express 'trust proxy' of the ingestion service: whose X-Forwarded-For names the provider's address. Default: loopback (the gateway on the same host, which forwards the client address it resolved with its own TRUST_PROXY). Set it to the gateway's address when they run on different hosts, or false when providers call this service directly.",
    ),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: envInt(65_000, 1000).describe("How long an idle keep-alive connection stays open (Node's server.keepAliveTimeout; Node's default is 5 s). Keep it above the idle timeout of the proxy in front (ingress-nginx's upstream-keepalive-timeout and cloud balancers: 60 s), so the proxy closes idle connections first and never sends a request on one this server is closing."),
  HTTP_HEADERS_TIMEOUT_MS: envInt(10_000, 1000).describe("A request's headers must all arrive within this, or it is answered 408 and its connection closed (Node's server.headersTimeout)."),
  HTTP_REQUEST_TIMEOUT_MS: envInt(30_000, 1000).describe("A whole request (headers and body) must arrive within this, or it is answered 408 and its connection closed (Node's server.requestTimeout)."),
  WEBHOOK_BODY_TIMEOUT_MS: envInt(10_000, 100).describe('A callback must have sent its whole body this long after its headers, or it is answered 408 request_timeout and closed.'),
  WEBHOOK_REQUESTS_PER_ADDRESS: envInt(128, 1).describe(
    'Callbacks one provider address (as TRUST_PROXY resolves it: behind the gateway, the address the gateway forwards) may have in flight at once; more are answered 429 too_many_requests (providers retry).',
  ),
  REFUSED_DELIVERIES_PER_MINUTE: envInt(60, 0).describe(
    'Refused deliveries (bad signature, address not allowed, unreadable…) recorded per source address (an IPv6 address: its /64) per minute on each replica; beyond it they are answered the same and counted (refused_deliveries_total{recorded="false"}), not stored. 0: none are recorded.',
  ),
  REFUSED_DELIVERY_RETENTION_HOURS: envInt(168, 1).describe(
    'Refused deliveries are deleted this many hours after they arrived (accepted deliveries, duplicates and ignored ones are kept).',
  ),
  REFUSED_DELIVERY_PRUNE_INTERVAL_MS: envInt(600_000, 1000).describe(
    'How often each replica deletes refused deliveries past REFUSED_DELIVERY_RETENTION_HOURS (replicas pruning at once take different rows).',
  ),
  BODY_LIMIT: z.string().default('64kb').describe('Largest callback body accepted (form or JSON).'),
  OFFERWALLS_SANDBOX: envBoolean(true).describe(
    'Emulate every offer wall that has no credentials: it is embedded from PUBLIC_URL/sandbox/offerwalls (the sandboxes process, through the gateway) and its postbacks are verified with the public sandbox credentials (refused in production unless ALLOW_SANDBOX_IN_PRODUCTION).',
  ),
  POSTBACK_MAX_POINTS: envInt(50_000, 1).describe('Largest reward one postback may credit; a larger credit is rejected and recorded.'),

  RAPIDOREACH_APP_ID: secret('RapidoReach app id.'),
  RAPIDOREACH_APP_KEY: secret('RapidoReach app key (API key): the checksum of the user uid.'),
  RAPIDOREACH_APP_SECRET: secret('RapidoReach app secret (transaction key): signs postbacks (txnHash).'),
  RAPIDOREACH_ALLOWED_IPS: allowedIps(
    'RapidoReach',
    ' Required for a live RapidoReach wall: its signature covers neither the amount nor whether it credits or reverses.',
  ),

  CPX_APP_ID: z.string().regex(/^\d+$/, 'must be the numeric CPX app id').optional().describe('CPX Research app id (numeric).'),
  CPX_SECURE_HASH: secret('CPX Research app secure hash: signs the widget user and postbacks.'),
  CPX_ALLOWED_IPS: allowedIps(
    'CPX Research',
    ' Required for a live CPX Research wall: its signature covers neither the amount nor the status (credit or reversal).',
  ),

  BITLABS_APP_TOKEN: secret('BitLabs app token (public, in the wall URL).'),
  BITLABS_APP_SECRET: secret('BitLabs app secret: HMAC-SHA1 key of callback URLs.'),
  BITLABS_ALLOWED_IPS: allowedIps('BitLabs'),

  LOOTABLY_PLACEMENT_ID: secret('Lootably placement id.'),
  LOOTABLY_POSTBACK_SECRET: secret('Lootably postback secret: signs postbacks (SHA-256).'),
  LOOTABLY_ALLOWED_IPS: allowedIps('Lootably', ' Required for a live Lootably wall: its signature does not cover the transaction id.'),

  TOROX_PUB_ID: secret('Torox (OfferToro) publisher id.'),
  TOROX_APP_ID: secret('Torox (OfferToro) app placement id.'),
  TOROX_SECRET_KEY: secret('Torox (OfferToro) app placement secret key: signs postbacks (sig).'),
  TOROX_ALLOWED_IPS: allowedIps(
    'Torox',
    ' Required for a live Torox wall: its signature covers neither the amount (nor its sign: credit or reversal) nor the conversion id.',
  ),

  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_/, 'must be a Stripe webhook signing secret (whsec_…)')
    .optional()
    .describe(
      "Signing secret of the Stripe webhook endpoint PUBLIC_URL/webhooks/stripe. Unset: the Stripe emulator's own secret (sandbox; refused in production unless ALLOW_SANDBOX_IN_PRODUCTION).",
    ),
  STRIPE_WEBHOOK_TOLERANCE_SECONDS: envInt(300, 1).describe('Stripe webhook deliveries signed longer ago than this are refused (replay protection).'),
  PROVIDER_PAYLOAD_RETENTION_DAYS: envInt(90, 1).describe(
    'Raw provider payloads (each postback\'s and Stripe delivery\'s body, which may carry the user\'s IP address) are erased from the delivery records after this many days; outcome and amounts stay (docs/accounts.md, "Retention").',
  ),
  ANALYTICS_ANONYMISE_AFTER_YEARS: envInt(2, 1).describe(
    'The delivery records\' source addresses (where each postback came from) are erased after this many years (docs/accounts.md, "Retention").',
  ),
  TRANSACTION_RETENTION_YEARS: envInt(7, 1).describe('Delivery records (transaction records) are deleted after this many years (docs/accounts.md, "Retention").'),
  })
  .refine((c) => c.NODE_ENV !== 'production' || c.STRIPE_WEBHOOK_SECRET !== undefined || c.ALLOW_SANDBOX_IN_PRODUCTION, {
    path: ['STRIPE_WEBHOOK_SECRET'],
    message: 'STRIPE_WEBHOOK_SECRET is required in production (or ALLOW_SANDBOX_IN_PRODUCTION for a demo)',
  });
export type WebhooksConfig = z.infer<typeof webhooksConfigSchema>;
