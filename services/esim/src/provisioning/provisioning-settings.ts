import type { EsimConfig } from '../config';

export const PROVISIONING_SETTINGS = Symbol('PROVISIONING_SETTINGS');

/** How provisionings are worked on (configuration, docs/redemption.md). */
export interface ProvisioningSettings {
  /** How often the sweeper looks for provisionings due (new ones, retries, and stuck ones). */
  pollMs: number;
  /** How long a claimed provisioning belongs to its worker; after that it counts as stuck. */
  leaseMs: number;
  /** Attempts (each with the adapter's own retries) before a provider that stays unreachable means manual transfer. */
  maxAttempts: number;
  /** Pause before the second attempt; doubles each time. */
  retryMs: number;
}

export function provisioningSettings(c: EsimConfig): ProvisioningSettings {
  return {
    pollMs: c.ESIM_PROVISIONING_POLL_MS,
    leaseMs: c.ESIM_PROVISIONING_LEASE_MS,
    maxAttempts: c.ESIM_PROVISIONING_ATTEMPTS,
    retryMs: c.ESIM_PROVISIONING_RETRY_MS,
  };
}
