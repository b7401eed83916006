import { z } from 'zod';
import { defineEvent } from '../events/event-definition';

/**
 * The low-data thresholds of a line (docs/wallet.md, "Low-data alerts"): `percent_used` when the
 * used share reaches ESIM_DATA_ALERT_PERCENT, `mb_left` when what is left falls to
 * ESIM_DATA_ALERT_REMAINING_MB.
 */
export const DATA_ALERT_THRESHOLDS = ['percent_used', 'mb_left'] as const;
export type DataAlertThreshold = (typeof DATA_ALERT_THRESHOLDS)[number];

/**
 * A line in the user's wallet crossed a low-data threshold. Published once per line, threshold and
 * data cycle (the line's allowed data: a top-up starts a new one), by whichever esim replica read
 * it first (`line_data_alerts`, unique per line, threshold and cycle). Notifications emails and
 * pushes it, each only if the user's settings allow it.
 */
export const LineDataLow = defineEvent(
  'esim',
  'line-data-low',
  1,
  z.object({
    alertId: z.string().uuid(),
    userId: z.string().uuid(),
    iccid: z.string(),
    threshold: z.enum(DATA_ALERT_THRESHOLDS),
    /** The threshold's setting when it was crossed: the percent, or the MB. */
    thresholdValue: z.number().int().nonnegative(),
    remainingMb: z.number().int().nonnegative(),
    allowedMb: z.number().int().nonnegative(),
    usedPercent: z.number().int().min(0).max(100),
    remainingDays: z.number().int().nullable(),
    detectedAt: z.string().datetime(),
  }),
);
