import type { EsimConfig } from '../config';

export const USAGE_ALERT_SETTINGS = Symbol('USAGE_ALERT_SETTINGS');

/** The background usage check and the low-data thresholds (configuration, docs/wallet.md). */
export interface UsageAlertSettings {
  /** Each line is read at most once per this period, across replicas. */
  checkEveryMs: number;
  /** How often a replica looks for lines due (never longer than a minute). */
  pollMs: number;
  /** Lines claimed per pass. */
  batch: number;
  /** `percent_used` fires when at least this share of the line's data is used. */
  percentUsed: number;
  /** `mb_left` fires when no more than this is left. */
  mbLeft: number;
}

export function usageAlertSettings(c: EsimConfig): UsageAlertSettings {
  const checkEveryMs = c.ESIM_USAGE_CHECK_SECONDS * 1000;
  return {
    checkEveryMs,
    pollMs: Math.min(checkEveryMs, 60_000),
    batch: c.ESIM_USAGE_CHECK_BATCH,
    percentUsed: c.ESIM_DATA_ALERT_PERCENT,
    mbLeft: c.ESIM_DATA_ALERT_REMAINING_MB,
  };
}
