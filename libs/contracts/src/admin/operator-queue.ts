import { z } from 'zod';
import { PRICE_CURRENCIES } from '../catalogue/plans';
import { iccidSchema } from '../http/redemption.http';
import { text } from '../http/text.http';

/**
 * The operator queue (docs/admin.md): every redemption, gift claim and card purchase that needs a
 * person. Each owning service lists its own items with their history; the gateway merges them.
 */
export const OPERATOR_ITEM_KINDS = ['redemption', 'gift-claim', 'purchase'] as const;
export type OperatorItemKind = (typeof OPERATOR_ITEM_KINDS)[number];

export const OPERATOR_ACTIONS = ['retry', 'deliver', 'refund'] as const;
export type OperatorAction = (typeof OPERATOR_ACTIONS)[number];

/**
 * Why the item waits for a person:
 * - `manual_transfer_required`: the eSIM provider could not be reached (or refused our account) after the retries;
 * - `manual_delivery_required`: a paid card purchase whose eSIM the provider did not issue;
 * - `stuck_provisioning`: a delivery still pending long after it started (a worker keeps dying on it);
 * - `stuck_reservation`: points reserved long ago that the eSIM side never picked up;
 * - `stuck_payment`: a paid purchase whose eSIM was never answered for.
 */
export const OPERATOR_REASONS = ['manual_transfer_required', 'manual_delivery_required', 'stuck_provisioning', 'stuck_reservation', 'stuck_payment'] as const;
export type OperatorReason = (typeof OPERATOR_REASONS)[number];

/** How long a delivery or reservation may stay pending before it counts as stuck and an operator sees it. */
export const STUCK_AFTER_SECONDS = 30 * 60;

/** What every service's operator-queue listing takes. */
export const operatorQueueListRequestSchema = z.object({
  limit: z.number().int().min(1).max(500),
  stuckAfterSeconds: z.number().int().min(0).default(STUCK_AFTER_SECONDS),
});

export const operatorHistoryEntrySchema = z.object({
  at: z.string(),
  /** What happened: `created`, `reserved`, `paid`, `attempt`, `failed`, `retry`, `deliver`, `refund`, … */
  event: z.string(),
  /** The admin who acted, for operator actions. */
  by: z.string().uuid().nullable(),
  detail: z.string().nullable(),
});
export type OperatorHistoryEntry = z.infer<typeof operatorHistoryEntrySchema>;

export const operatorQueueItemSchema = z.object({
  kind: z.enum(OPERATOR_ITEM_KINDS),
  /** The redemption id (redemptions and gift claims) or the purchase id. */
  id: z.string().uuid(),
  userId: z.string().uuid(),
  reason: z.enum(OPERATOR_REASONS),
  /** The owner's own status of the item (provisioning, redemption or purchase status). */
  status: z.string(),
  planTier: z.string(),
  amountGB: z.number().int(),
  /** Points reserved for it (0 unless paid with points). */
  points: z.number().int(),
  /** What the card paid, in minor units of `currency` (purchases only). */
  priceCents: z.number().int().nullable(),
  /** The currency of `priceCents` (ISO 4217; purchases only). */
  currency: z.enum(PRICE_CURRENCIES).nullable(),
  purchaseType: z.enum(['new', 'topup']),
  country: z.string().nullable(),
  targetIccid: z.string().nullable(),
  failure: z.object({ reason: z.string(), message: z.string() }).nullable(),
  createdAt: z.string(),
  /** Since when it has waited for a person. */
  waitingSince: z.string(),
  /** What an admin can do now; empty while a worker holds it. */
  actions: z.array(z.enum(OPERATOR_ACTIONS)),
  /** Why some action is not offered, when that needs saying. */
  note: z.string().nullable(),
  history: z.array(operatorHistoryEntrySchema),
});
export type OperatorQueueItem = z.infer<typeof operatorQueueItemSchema>;

/** An LPA activation code as SGP.22 writes it: `LPA:1$<SM-DP+ address>$<matching id>`. */
export const LPA_RULE_MESSAGE = 'The activation code must look like LPA:1$smdp.example.com$MATCHING-ID';
export const lpaCodeSchema = text({ error: LPA_RULE_MESSAGE })
  .trim()
  .max(255, LPA_RULE_MESSAGE)
  .regex(/^LPA:1\$[A-Za-z0-9.-]+(?::\d{1,5})?\$[A-Za-z0-9._-]{1,128}(?:\$[A-Za-z0-9._-]*)?$/, LPA_RULE_MESSAGE);

/** What an operator delivered by hand (in the provider's dashboard): the line and its activation code. */
export const manualDeliverySchema = z.object({ iccid: iccidSchema, lpaCode: lpaCodeSchema });
export type ManualDelivery = z.infer<typeof manualDeliverySchema>;

/** What a resolution did. `status` is the item's new status with its owner. */
export const operatorResolutionSchema = z.object({
  kind: z.enum(OPERATOR_ITEM_KINDS),
  id: z.string().uuid(),
  action: z.enum(OPERATOR_ACTIONS),
  status: z.string(),
  message: z.string(),
  /** Stripe's refund id, for a card refund. */
  refundId: z.string().nullable(),
  resolvedAt: z.string(),
});
export type OperatorResolution = z.infer<typeof operatorResolutionSchema>;
