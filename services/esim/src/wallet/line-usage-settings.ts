import type { EsimConfig } from '../config';

export const LINE_USAGE_SETTINGS = Symbol('LINE_USAGE_SETTINGS');

/** How long what KeepGo says about a line is reused (configuration, docs/wallet.md). */
export interface LineUsageSettings {
  /** An answer younger than this is reused as it is. */
  cacheMs: number;
  /** Even a refresh the user asked for reuses an answer younger than this. */
  refreshFloorMs: number;
  /** Lines remembered at most (the oldest answer is forgotten first). */
  maxEntries: number;
  /** When KeepGo cannot be reached, an answer up to this old is still shown (with its time). */
  staleMs: number;
}

export function lineUsageSettings(c: EsimConfig): LineUsageSettings {
  return {
    cacheMs: c.ESIM_LINE_USAGE_CACHE_SECONDS * 1000,
    refreshFloorMs: c.ESIM_LINE_USAGE_REFRESH_SECONDS * 1000,
    maxEntries: 10_000,
    staleMs: 24 * 60 * 60 * 1000,
  };
}
