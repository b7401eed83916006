import { z } from 'zod';
import { defineEvent } from '../events/event-definition';
import { TASK_TYPES } from '../rewards/tasks';
import { OFFERWALL_IDS } from './offerwalls';

/**
 * An offer-wall postback passed every check the ingestion service makes alone (wall, source
 * address, signature, fields, amount cap, a registered user, not a replay) and was recorded. At
 * most one credit and one reversal per provider transaction are ever accepted. Rewards credits a
 * `credit` once per (provider, creditTransactionId), takes a `reverse` back once, and reports
 * refusals with rewards.offerwall-postback-refused.v1.
 */
export const OfferwallPostbackAccepted = defineEvent(
  'webhooks',
  'offerwall-postback-accepted',
  1,
  z.object({
    /** The webhook_transactions row of this delivery. */
    deliveryId: z.string().uuid(),
    provider: z.enum(OFFERWALL_IDS),
    action: z.enum(['credit', 'reverse']),
    /** This delivery's own provider transaction id. */
    transactionId: z.string().min(1).max(128),
    /** The provider transaction credited, or taken back by a reversal (BitLabs reversals have their own id). */
    creditTransactionId: z.string().min(1).max(128),
    userId: z.string().uuid(),
    /** Whole points (1 point = 1 MB) of a credit; a reversal's stated amount, informative only. */
    points: z.number().int().nonnegative(),
    taskType: z.enum(TASK_TYPES),
    acceptedAt: z.string().datetime(),
  }),
);
