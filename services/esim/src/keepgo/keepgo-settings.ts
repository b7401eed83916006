import type { ProviderBreakerSettings } from '@esim/platform';
import type { EsimConfig } from '../config';
import { KEEPGO_LIVE_BASE_URL, KEEPGO_SANDBOX_ACCESS_TOKEN, KEEPGO_SANDBOX_API_KEY, KEEPGO_SANDBOX_API_PATH } from './keepgo-api';

export const KEEPGO_SETTINGS = Symbol('KEEPGO_SETTINGS');
/** The ProviderCalls (metrics and circuit breaker) every KeepGo call goes through. */
export const KEEPGO_CALLS = Symbol('KEEPGO_CALLS');

/** How the adapter reaches KeepGo, decided once at start-up from the configuration. */
export interface KeepGoSettings {
  /** No credentials: the emulator (the sandboxes process) answers, with its public sandbox credentials. */
  sandbox: boolean;
  apiKey: string;
  accessToken: string;
  /** The API base including /api/v2. */
  baseUrl: string;
  timeoutMs: number;
  retries: number;
  retryBackoffMs: number;
  catalogueCacheMs: number;
  lookupMaxPages: number;
  /** How long an operation waits for the per-line lock (keepgo-line-locks.service.ts). */
  lineLockWaitMs: number;
  /** KEEPGO_BREAKER_*: when KeepGo's circuit breaker opens and how long it stays open. */
  breaker: ProviderBreakerSettings;
  /** Country (ISO-2) → bundle id chosen by the operator. */
  pinnedBundles: ReadonlyMap<string, number>;
}

/**
 * Live KeepGo when both credentials are set; otherwise the emulator at SANDBOXES_URL. Production without
 * credentials never gets here unless ALLOW_SANDBOX_IN_PRODUCTION (the config schema refuses it).
 */
export function keepGoSettings(c: EsimConfig): KeepGoSettings {
  const sandbox = c.KEEPGO_API_KEY === undefined;
  return {
    sandbox,
    apiKey: c.KEEPGO_API_KEY ?? KEEPGO_SANDBOX_API_KEY,
    accessToken: c.KEEPGO_ACCESS_TOKEN ?? KEEPGO_SANDBOX_ACCESS_TOKEN,
    baseUrl: (
      c.KEEPGO_BASE_URL ?? (sandbox ? `${c.SANDBOXES_URL.replace(/\/+$/, '')}${KEEPGO_SANDBOX_API_PATH}` : KEEPGO_LIVE_BASE_URL)
    ).replace(/\/+$/, ''),
    timeoutMs: c.KEEPGO_TIMEOUT_MS,
    retries: c.KEEPGO_RETRIES,
    retryBackoffMs: c.KEEPGO_RETRY_BACKOFF_MS,
    catalogueCacheMs: c.KEEPGO_CATALOGUE_CACHE_SECONDS * 1000,
    lookupMaxPages: c.KEEPGO_LOOKUP_MAX_PAGES,
    lineLockWaitMs: c.KEEPGO_LINE_LOCK_WAIT_MS,
    breaker: { failures: c.KEEPGO_BREAKER_FAILURES, halfOpenAfterMs: c.KEEPGO_BREAKER_HALF_OPEN_MS },
    pinnedBundles: new Map(
      c.KEEPGO_BUNDLE_IDS.map((entry) => {
        const [country, id] = entry.split('=');
        return [country, Number(id)] as const;
      }),
    ),
  };
}
