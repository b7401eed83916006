import { z } from 'zod';
import { iccidSchema } from '../http/redemption.http';
import { defineRpc } from '../rpc/rpc-definition';
import type { RedeemablePlanTier } from '../catalogue/plans';

/**
 * The plan one top-up adds, automatic or the line card's one-tap top-up (docs/wallet.md, "Top-up
 * with points"): one size for both, so the card's button promises what the rule does.
 */
export const LINE_TOPUP_PLAN_TIER: RedeemablePlanTier = '1GB';

/**
 * "When below X MB, top up 1 GB with my points" on one of the user's lines (docs/wallet.md,
 * "Top-up with points"): `belowMb` the trigger, `monthlyCap` the most automatic top-ups of the
 * line in a calendar month (UTC).
 */
export const autoTopupSettingsSchema = z.object({
  enabled: z.boolean({ error: 'enabled must be true or false' }),
  belowMb: z.number({ error: 'belowMb must be a number' }).int('belowMb must be a whole number').min(50, 'belowMb must be at least 50').max(5000, 'belowMb must be at most 5000'),
  monthlyCap: z.number({ error: 'monthlyCap must be a number' }).int('monthlyCap must be a whole number').min(1, 'monthlyCap must be at least 1').max(10, 'monthlyCap must be at most 10'),
});
export type AutoTopupSettings = z.infer<typeof autoTopupSettingsSchema>;

export const autoTopupSchema = autoTopupSettingsSchema.extend({
  iccid: z.string(),
  /** Automatic top-ups of the line this month (UTC), toward `monthlyCap`. */
  usedThisMonth: z.number().int().nonnegative(),
  /** The last automatic top-up asked for (ISO time), or null. */
  lastTriggeredAt: z.string().nullable(),
});
export type AutoTopup = z.infer<typeof autoTopupSchema>;

/** The acting user's automatic top-up of a line in their wallet; 404 `line_not_found` for any other line. */
export const AutoTopupRpc = {
  get: defineRpc('esim', 'get-auto-topup', z.object({ iccid: iccidSchema }), autoTopupSchema),
  set: defineRpc('esim', 'set-auto-topup', autoTopupSettingsSchema.extend({ iccid: iccidSchema }), autoTopupSchema),
} as const;
