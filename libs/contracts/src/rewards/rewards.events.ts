import { z } from 'zod';
import { defineEvent } from '../events/event-definition';
import { heldPointsSchema } from './held-credits';
import { OFFERWALL_IDS } from '../webhooks/offerwalls';
import { REWARDS_REFUSALS } from '../webhooks/postbacks';

/**
 * Offer-wall tasks were credited to a user from one wall: one event per user and wall of a batch
 * of credits (services/rewards/src/offerwall-credits), with how many tasks and their points summed;
 * the tasks themselves are in the user's history (RewardsRpc.listTasks). The gateway's live view
 * turns it into the user's "+N MB from <wall>" notice, which never named a task; the balance itself
 * travels in BalanceChanged. One per batch rather than one per task: under a burst of postbacks
 * (bench/postbacks.bench.mjs) each event was an outbox row, broker bytes and a gateway inbox key.
 */
export const TasksCredited = defineEvent(
  'rewards',
  'tasks-credited',
  1,
  z.object({
    userId: z.string().uuid(),
    provider: z.enum(OFFERWALL_IDS),
    tasks: z.number().int().positive(),
    points: z.number().int().positive(),
    creditedAt: z.string().datetime(),
  }),
);

/** The provider took a credited task back; its points were deducted once (the live view says so). */
export const TaskReversed = defineEvent(
  'rewards',
  'task-reversed',
  1,
  z.object({
    taskId: z.string().uuid(),
    userId: z.string().uuid(),
    provider: z.enum(OFFERWALL_IDS),
    transactionId: z.string(),
    points: z.number().int().positive(),
    reversedAt: z.string().datetime(),
  }),
);

/**
 * Rewards could not apply an offer-wall postback the ingestion service accepted: the user's points
 * account is closed, the credit a reversal names was never applied, or the ledger already held it.
 * The ingestion service records the outcome against the delivery (webhook_transactions), where
 * operators look for every postback's fate.
 */
export const OfferwallPostbackRefused = defineEvent(
  'rewards',
  'offerwall-postback-refused',
  1,
  z.object({
    deliveryId: z.string().uuid(),
    provider: z.enum(OFFERWALL_IDS),
    transactionId: z.string(),
    outcome: z.enum(REWARDS_REFUSALS),
    refusedAt: z.string().datetime(),
  }),
);

/**
 * The user's available points changed (any ledger transfer on their account: a credit, a reversal,
 * a reservation, its post or its void), published in the transaction that made the change, once
 * per user per transaction. `version` is the number of ledger entries on the user's account when
 * `points` was read, under a lock that makes the changes of one account take turns
 * (services/rewards/src/ledger/balance-announcements.ts): a higher version is always a later
 * balance, so a consumer keeps the highest it has seen and never moves backwards.
 * `points` is what the user can spend; `pendingPoints` and `pendingReleases` are their held
 * credits (a release of held points is a change too). Both are absent from events published
 * before held credits existed: read as nothing held.
 */
export const BalanceChanged = defineEvent(
  'rewards',
  'balance-changed',
  1,
  z.object({
    userId: z.string().uuid(),
    points: z.number().int(),
    version: z.number().int().nonnegative(),
    changedAt: z.string().datetime(),
    pendingPoints: heldPointsSchema.shape.pendingPoints.optional(),
    pendingReleases: heldPointsSchema.shape.pendingReleases.optional(),
  }),
);
