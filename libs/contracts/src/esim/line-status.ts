/**
 * A line's state in the wallet: `active`, or `cancelled` (deactivated at the provider for a
 * self-serve refund: no usage reads, alerts or top-ups on it any more).
 */
export const ESIM_LINE_STATUSES = ['active', 'cancelled'] as const;
export type EsimLineStatus = (typeof ESIM_LINE_STATUSES)[number];
