import type { DataAlertThreshold } from '@esim/contracts';
import type { UsageAlertSettings } from './usage-alert-settings';

export interface CrossedThreshold {
  threshold: DataAlertThreshold;
  /** The setting that was crossed (the percent, or the MB). */
  value: number;
}

/**
 * Which low-data thresholds a line's reading has reached (docs/wallet.md, "Low-data alerts").
 * A reading without counters (KeepGo did not say) reaches none.
 */
export function crossedThresholds(
  usage: { remainingMb: number | null; allowedMb: number | null },
  settings: Pick<UsageAlertSettings, 'percentUsed' | 'mbLeft'>,
): CrossedThreshold[] {
  const { remainingMb, allowedMb } = usage;
  if (remainingMb === null || allowedMb === null || allowedMb <= 0) return [];
  const crossed: CrossedThreshold[] = [];
  if (usedPercent(usage) >= settings.percentUsed) crossed.push({ threshold: 'percent_used', value: settings.percentUsed });
  if (remainingMb <= settings.mbLeft) crossed.push({ threshold: 'mb_left', value: settings.mbLeft });
  return crossed;
}

/** The used share of the line's data, whole percent rounded down, 0-100. */
export function usedPercent({ remainingMb, allowedMb }: { remainingMb: number | null; allowedMb: number | null }): number {
  if (remainingMb === null || allowedMb === null || allowedMb <= 0) return 0;
  const used = Math.max(0, allowedMb - Math.max(0, remainingMb));
  return Math.min(100, Math.floor((used * 100) / allowedMb));
}
