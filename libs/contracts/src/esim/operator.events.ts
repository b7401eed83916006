import { z } from 'zod';
import { REDEEMABLE_PLAN_TIERS } from '../catalogue/plans';
import { defineEvent } from '../events/event-definition';

/**
 * A delivery that waited for a person ended: delivered by hand, or after an operator's retry
 * (`delivered`); points released / gift claimable again by an operator (`refunded`); or refused by
 * the provider on an operator's retry (`refused`, points or gift given back the same way).
 * Notifications emails the user the outcome (a new eSIM delivered is told by the eSIM-ready email
 * of esim.provisioning-succeeded, which always accompanies it).
 */
export const DeliveryResolved = defineEvent(
  'esim',
  'delivery-resolved',
  1,
  z.object({
    redemptionId: z.string().uuid(),
    provisioningId: z.string().uuid(),
    source: z.enum(['points', 'gift']),
    userId: z.string().uuid(),
    kind: z.enum(['new', 'topup']),
    planTier: z.enum(REDEEMABLE_PLAN_TIERS),
    amountGB: z.number().int().positive(),
    points: z.number().int().nonnegative(),
    resolution: z.enum(['delivered', 'refunded', 'refused']),
    iccid: z.string().nullable(),
    /** The admin who acted; null when the provider's own answer (after a retry) settled it. */
    resolvedBy: z.string().uuid().nullable(),
    reason: z.string().nullable(),
    resolvedAt: z.string().datetime(),
  }),
);
