import { z } from 'zod';
import { envInt, envList, platformConfigSchema, providerBreakerSettings, sandboxesUrlSetting } from '@esim/platform';

const keepGoBreaker = providerBreakerSettings('KeepGo');

export const esimConfigSchema = platformConfigSchema
  .extend({
    SANDBOXES_URL: sandboxesUrlSetting,
    KEEPGO_API_KEY: z
      .string()
      .optional()
      .describe(
        'KeepGo reseller API key (the `apiKey` header). Unset, with KEEPGO_ACCESS_TOKEN: the KeepGo emulator of the sandboxes process is used (refused in production unless ALLOW_SANDBOX_IN_PRODUCTION).',
      ),
    KEEPGO_ACCESS_TOKEN: z
      .string()
      .optional()
      .describe('KeepGo reseller access token (the `accessToken` header); required with KEEPGO_API_KEY.'),
    KEEPGO_BASE_URL: z
      .string()
      .url()
      .optional()
      .describe(
        "KeepGo API base including /api/v2 (default: https://myaccount.keepgo.com/api/v2; in sandbox mode, the emulator at SANDBOXES_URL/keepgo/api/v2).",
      ),
    KEEPGO_TIMEOUT_MS: envInt(10_000, 100).describe(
      'How long one KeepGo call may take before it is abandoned and counted as a transient failure.',
    ),
    KEEPGO_RETRIES: envInt(2, 0).describe(
      'Extra attempts after a transient KeepGo failure (timeout, network, 5xx, 429); refusals are never retried.',
    ),
    KEEPGO_RETRY_BACKOFF_MS: envInt(300, 0).describe('First pause between KeepGo attempts; doubles each time, with jitter.'),
    KEEPGO_CATALOGUE_CACHE_SECONDS: envInt(900, 0).describe('How long the KeepGo bundle catalogue (GET /bundles, slow) is cached.'),
    KEEPGO_LOOKUP_MAX_PAGES: envInt(20, 1).describe(
      'Pages of 100 lines searched when looking for a new line by our reference after an unanswered create.',
    ),
    KEEPGO_LINE_LOCK_WAIT_MS: envInt(60_000, 100).describe(
      'How long an operation on a KeepGo line waits for another one on the same line (any replica) to finish before it counts as a transient failure and is tried again later.',
    ),
    KEEPGO_BREAKER_FAILURES: keepGoBreaker.failures,
    KEEPGO_BREAKER_HALF_OPEN_MS: keepGoBreaker.halfOpenAfterMs,
    KEEPGO_BUNDLE_IDS: envList()
      .pipe(z.array(z.string().regex(/^[A-Z]{2}=\d+$/, 'entries must look like US=123')))
      .describe(
        'Pins the KeepGo bundle used for a country, as CC=bundleId pairs (e.g. "US=123,MX=456"); other countries are matched from the catalogue.',
      ),
    ESIM_LINE_USAGE_CACHE_SECONDS: envInt(300, 0).describe(
      'How long the data and validity left on a line (My eSIMs, read from KeepGo) are reused before KeepGo is asked again.',
    ),
    ESIM_LINE_USAGE_REFRESH_SECONDS: envInt(15, 0).describe(
      'A refresh the user asks for reuses an answer younger than this, so tapping refresh cannot flood KeepGo.',
    ),
    ESIM_USAGE_CHECK_SECONDS: envInt(3600, 1).describe(
      'How often each line in a wallet has its usage read from KeepGo in the background (refreshing My eSIMs and checking the low-data alerts); replicas share the lines, each read by one.',
    ),
    ESIM_USAGE_CHECK_BATCH: envInt(50, 1).describe('Lines one replica reads from KeepGo per background pass.'),
    ESIM_DATA_ALERT_PERCENT: z.coerce.number().int().min(1).max(99).default(80).describe('Low-data alert: sent once per line and data cycle when this share (percent) of its data is used.'),
    ESIM_DATA_ALERT_REMAINING_MB: envInt(100, 1).describe(
      'Low-data alert: sent once per line and data cycle when no more than this many MB are left on it.',
    ),
    ESIM_PROVISIONING_POLL_MS: envInt(1000, 50).describe(
      'How often the provisioning sweeper looks for redemptions to deliver, retry or recover.',
    ),
    ESIM_PROVISIONING_LEASE_MS: envInt(120_000, 500).describe(
      'How long a worker owns a provisioning it started; after that it counts as stuck and is resumed by asking the provider by our reference. Keep it above the longest provider call with its retries.',
    ),
    ESIM_PROVISIONING_ATTEMPTS: envInt(3, 1).describe(
      'Attempts (each with the KeepGo retries) before an unreachable provider turns a redemption into manual_transfer_required.',
    ),
    ESIM_PROVISIONING_RETRY_MS: envInt(30_000, 0).describe(
      'Pause before the second provisioning attempt after a transient provider failure; doubles each time.',
    ),
    TRANSACTION_RETENTION_YEARS: envInt(7, 1).describe(
      'Finished deliveries, delivered or cancelled gifts and auto top-up records (transaction records) are deleted after this many years; one an operator acted on stays with its append-only history (docs/accounts.md, "Retention").',
    ),
  })
  .refine((c) => (c.KEEPGO_API_KEY === undefined) === (c.KEEPGO_ACCESS_TOKEN === undefined), {
    path: ['KEEPGO_ACCESS_TOKEN'],
    message: 'KEEPGO_API_KEY and KEEPGO_ACCESS_TOKEN go together: set both for live KeepGo, or neither for the emulator',
  })
  .refine((c) => c.NODE_ENV !== 'production' || c.KEEPGO_API_KEY !== undefined || c.ALLOW_SANDBOX_IN_PRODUCTION, {
    path: ['KEEPGO_API_KEY'],
    message: 'KEEPGO_API_KEY is required in production (or ALLOW_SANDBOX_IN_PRODUCTION for a demo)',
  });
export type EsimConfig = z.infer<typeof esimConfigSchema>;
