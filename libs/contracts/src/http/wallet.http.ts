import { z } from 'zod';
import { autoTopupSchema, autoTopupSettingsSchema } from '../esim/auto-topup.rpc';
import { defineRoute } from '../openapi/define-route';
import { iccidSchema } from './redemption.http';

/*
 * The My eSIMs wallet beyond the lists (docs/wallet.md): what is left on a line, as the eSIM
 * provider reports it.
 */

/** `GET /api/esim-lines/{iccid}/usage?refresh=true`: `refresh` asks the provider again (a recent answer is reused). */
export const lineUsageQuerySchema = z.object({
  refresh: z
    .enum(['true', 'false'], { error: 'refresh must be true or false' })
    .optional()
    .transform((v) => v === 'true'),
});
export type LineUsageQuery = z.input<typeof lineUsageQuerySchema>;

export const LINE_USAGE_NOT_FOUND_MESSAGE = 'This eSIM is not in your wallet.';
export const LINE_USAGE_UNAVAILABLE_MESSAGE = 'The eSIM provider could not be reached. Try again in a moment.';
export const LINE_CANCELLED_MESSAGE = 'This eSIM was cancelled when its purchase was refunded.';

/**
 * What the provider says is left on one of the user's lines. `remainingMb`/`allowedMb` are for the
 * bundles still valid (null when the provider does not say); `remainingDays` is the validity left
 * of the longest of them (null: no expiry yet, e.g. a bundle that starts on first use).
 * `checkedAt` is when the provider was asked: answers are reused for a short while.
 */
export const lineUsageSchema = z.object({
  iccid: z.string(),
  /** The provider's status text: 'Registered', 'Activated', 'Deactivated', … */
  status: z.string(),
  remainingMb: z.number().int().nullable(),
  allowedMb: z.number().int().nullable(),
  remainingDays: z.number().int().nullable(),
  checkedAt: z.string(),
});
export type LineUsage = z.infer<typeof lineUsageSchema>;

export const WalletRoutes = {
  autoTopup: defineRoute({
    method: 'GET',
    path: '/api/esim-lines/{iccid}/auto-topup',
    reasons: ['line_not_found'],
    tag: 'Redemption',
    auth: 'session',
    summary: "The automatic top-up with points of one of the user's lines (off until set)",
    params: z.object({ iccid: iccidSchema }),
    response: autoTopupSchema,
    errors: { 404: "Not one of the user's eSIM lines (`reason: line_not_found`)." },
  }),
  setAutoTopup: defineRoute({
    method: 'PUT',
    path: '/api/esim-lines/{iccid}/auto-topup',
    reasons: ['line_not_found'],
    tag: 'Redemption',
    auth: 'session',
    summary: "Turn on or off \"when below X MB, top up 1 GB with my points\" on one of the user's lines, with a monthly cap",
    params: z.object({ iccid: iccidSchema }),
    body: autoTopupSettingsSchema,
    response: autoTopupSchema,
    errors: { 404: "Not one of the user's eSIM lines (`reason: line_not_found`)." },
  }),
  lineUsage: defineRoute({
    method: 'GET',
    path: '/api/esim-lines/{iccid}/usage',
    reasons: ['line_not_found', 'line_cancelled', 'provider_unavailable'],
    tag: 'Redemption',
    auth: 'session',
    summary: "Data and validity left on one of the user's eSIM lines, read from the provider (cached briefly)",
    params: z.object({ iccid: iccidSchema }),
    query: lineUsageQuerySchema,
    response: lineUsageSchema,
    errors: {
      404: "Not one of the user's eSIM lines (`reason: line_not_found`).",
      409: 'The line was cancelled for a refund: the provider is not asked about it (`reason: line_cancelled`).',
      503: 'The eSIM provider could not be reached (`reason: provider_unavailable`).',
    },
  }),
};
