import { z } from 'zod';
import { defineEvent } from '../events/event-definition';

/**
 * How a trigger of a line's automatic top-up ended (docs/wallet.md, "Top-up with points"):
 * - `requested`: rewards took the points and the 1 GB is on its way (the delivery follows as any
 *   top-up's does);
 * - `no_points`: rewards refused, not enough spendable points; nothing was spent;
 * - `monthly_cap`: the rule's monthly cap was already reached; nothing was asked.
 */
export const AUTO_TOPUP_OUTCOMES = ['requested', 'no_points', 'monthly_cap'] as const;
export type AutoTopupOutcomeKind = (typeof AUTO_TOPUP_OUTCOMES)[number];

/**
 * A trigger of a line's automatic top-up was settled. Published once per trigger (a line's data
 * cycle), in the transaction that records the trigger's status, by whichever esim replica settled
 * it. Notifications tells the user (email and Web Push, as their switches allow); the gateway says
 * a refusal on the user's open pages.
 */
export const AutoTopupSettled = defineEvent(
  'esim',
  'auto-topup-settled',
  1,
  z.object({
    triggerId: z.string().uuid(),
    userId: z.string().uuid(),
    iccid: z.string(),
    outcome: z.enum(AUTO_TOPUP_OUTCOMES),
    /** The redemption asked for (`requested` only). */
    redemptionId: z.string().uuid().nullable(),
    amountGB: z.number().int().positive(),
    points: z.number().int().positive(),
    /** What the reading that triggered it left on the line. */
    remainingMb: z.number().int().nonnegative(),
    monthlyCap: z.number().int().positive(),
    settledAt: z.string().datetime(),
  }),
);
