import { purchaseRefundRecordSchema } from '../payments/payments-admin.rpc';
import { z } from 'zod';
import { manualDeliverySchema, OPERATOR_ITEM_KINDS, operatorQueueItemSchema, operatorResolutionSchema } from '../admin/operator-queue';
import { defineRoute } from '../openapi/define-route';
import { SERVICES } from '../ports/services';
import { REDEMPTION_STANDING_STATES, RISK_REASONS } from '../rewards/redemption-risk';

const adminUserSchema = z.object({ id: z.string().uuid(), name: z.string(), email: z.string() });

/** `GET /api/admin/operator-queue`: the items, oldest wait first, with the user they belong to. */
export const operatorQueueResponseSchema = z.object({
  items: z.array(operatorQueueItemSchema.extend({ user: adminUserSchema.nullable() })),
  /** A service that did not answer: its items are missing from this list. */
  unavailable: z.array(z.string()),
});
export type OperatorQueueResponse = z.infer<typeof operatorQueueResponseSchema>;

export const operatorItemParamsSchema = z.object({
  kind: z.enum(OPERATOR_ITEM_KINDS, { error: `kind must be one of ${OPERATOR_ITEM_KINDS.join(', ')}` }),
  id: z.string().uuid({ error: 'No such item in the operator queue.' }),
});

/** One message of a dead-letter queue, as an admin sees it (personal values redacted). */
export const deadLetterSchema = z.object({
  /** The event id (the inbox's key), or the broker message id of an unreadable message. */
  messageId: z.string(),
  type: z.string().nullable(),
  occurredAt: z.string().nullable(),
  /** `handler_failed` (with `error`), `unreadable`, or the broker's own reason (`delivery_limit`, `rejected`). */
  reason: z.string(),
  error: z.string().nullable(),
  deliveries: z.number().int().nullable(),
  deadLetteredAt: z.string().nullable(),
  /** The payload's fields, values shortened; personal and secret ones shown as [redacted]. */
  payloadSummary: z.record(z.string(), z.string()),
});
export type DeadLetter = z.infer<typeof deadLetterSchema>;

export const deadLetterQueueSchema = z.object({
  service: z.enum(SERVICES),
  queue: z.string(),
  /** Messages in the queue now; `messages` shows the oldest of them. */
  count: z.number().int(),
  messages: z.array(deadLetterSchema),
});
export const deadLettersResponseSchema = z.object({ queues: z.array(deadLetterQueueSchema) });
export type DeadLettersResponse = z.infer<typeof deadLettersResponseSchema>;

export const deadLetterParamsSchema = z.object({
  service: z.enum(SERVICES, { error: 'No such service.' }),
  messageId: z.string().min(1).max(200).regex(/^[A-Za-z0-9:._-]+$/, 'No such message.'),
});
export const deadLetterServiceParamsSchema = deadLetterParamsSchema.pick({ service: true });
export const deadLetterActionResponseSchema = z.object({ service: z.enum(SERVICES), replayed: z.number().int(), discarded: z.number().int() });
export type DeadLetterActionResponse = z.infer<typeof deadLetterActionResponseSchema>;

export const AUDIT_OUTCOMES = ['succeeded', 'failed'] as const;

/** One admin action of the append-only audit trail (docs/admin.md, "Audit trail"). */
export const auditEntrySchema = z.object({
  id: z.string().uuid(),
  at: z.string(),
  /** The acting admin, when it was one (null for the operator's command line and ADMIN_EMAILS). */
  actorId: z.string().uuid().nullable(),
  actor: z.string(),
  action: z.string(),
  targetType: z.string().nullable(),
  targetId: z.string().nullable(),
  details: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
  /** `succeeded`, `failed`, or null while the action has not reported back. */
  outcome: z.enum(AUDIT_OUTCOMES).nullable(),
  outcomeMessage: z.string().nullable(),
  outcomeAt: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
export const auditPageSchema = z.object({ entries: z.array(auditEntrySchema), nextCursor: z.string().nullable() });
export type AuditPage = z.infer<typeof auditPageSchema>;
export const auditQuerySchema = z.object({
  before: z.string().regex(/^\d{1,18}$/, 'before must be a cursor from a previous page').optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

/** `GET /api/admin/linked-accounts`: accounts linked by the fraud signals, with each one's reversal rate. */
export const linkedAccountsResponseSchema = z.object({
  groups: z.array(
    z.object({
      /** The shared device's id: what a decision over the group names. */
      groupId: z.string().uuid(),
      reasons: z.array(z.enum(['shared_device'])),
      accounts: z.array(
        z.object({
          userId: z.string().uuid(),
          name: z.string(),
          email: z.string(),
          disposableEmail: z.boolean(),
          sharedNetworks: z.number().int(),
          credits: z.number().int(),
          reversals: z.number().int(),
          /** What the risk rules make of the account's redemptions (docs/earning.md, "Risk rules"). */
          redemptions: z.enum(REDEMPTION_STANDING_STATES),
          riskReasons: z.array(z.enum(RISK_REASONS)),
        }),
      ),
    }),
  ),
});
export type LinkedAccountsResponse = z.infer<typeof linkedAccountsResponseSchema>;

/** `GET /api/admin/refunds`: self-serve refunds, newest first, with who asked. */
export const adminRefundsResponseSchema = z.object({
  refunds: z.array(
    purchaseRefundRecordSchema.extend({ user: z.object({ id: z.string().uuid(), name: z.string().nullable(), email: z.string() }).nullable() }),
  ),
});
export type AdminRefundsResponse = z.infer<typeof adminRefundsResponseSchema>;

export const AdminOperationsRoutes = {
  linkedAccounts: defineRoute({
    method: 'GET',
    path: '/api/admin/linked-accounts',
    tag: 'Admin',
    auth: 'admin',
    summary: 'Accounts linked by a shared device, with their other signals (disposable email, shared networks, reversals)',
    response: linkedAccountsResponseSchema,
  }),
  refunds: defineRoute({
    method: 'GET',
    path: '/api/admin/refunds',
    tag: 'Admin',
    auth: 'admin',
    summary: 'Self-serve refunds of purchases, newest first',
    response: adminRefundsResponseSchema,
  }),
  operatorQueue: defineRoute({
    method: 'GET',
    path: '/api/admin/operator-queue',
    tag: 'Admin',
    auth: 'admin',
    summary: 'Redemptions, gift claims and card purchases that need a person, with their history',
    response: operatorQueueResponseSchema,
  }),
  retry: defineRoute({
    method: 'POST',
    path: '/api/admin/operator-queue/{kind}/{id}/retry',
    reasons: ['operator_item_not_found', 'redemption_not_found', 'already_resolved', 'retry_in_progress', 'audit_unavailable'],
    tag: 'Admin',
    auth: 'admin',
    summary: 'Send the item through the eSIM provider again (once, whoever clicks)',
    params: operatorItemParamsSchema,
    response: operatorResolutionSchema,
    errors: { 404: 'No such item.', 409: 'Already resolved, or not in a state this action accepts.' },
  }),
  deliver: defineRoute({
    method: 'POST',
    path: '/api/admin/operator-queue/{kind}/{id}/deliver',
    reasons: ['operator_item_not_found', 'already_resolved', 'delivery_incomplete', 'wrong_line', 'audit_unavailable'],
    tag: 'Admin',
    auth: 'admin',
    summary: 'Record a delivery made by hand (ICCID and LPA code); the user is emailed',
    params: operatorItemParamsSchema,
    body: manualDeliverySchema,
    response: operatorResolutionSchema,
    errors: { 404: 'No such item.', 409: 'Already resolved, or not in a state this action accepts.' },
  }),
  refund: defineRoute({
    method: 'POST',
    path: '/api/admin/operator-queue/{kind}/{id}/refund',
    reasons: ['operator_item_not_found', 'already_resolved', 'refund_failed', 'audit_unavailable'],
    tag: 'Admin',
    auth: 'admin',
    summary: 'Give the points (or gift) back, or refund the card through Stripe; the user is emailed',
    params: operatorItemParamsSchema,
    response: operatorResolutionSchema,
    errors: { 404: 'No such item.', 409: 'Already resolved, or not in a state this action accepts.', 502: 'Stripe did not refund; nothing changed.' },
  }),
  deadLetters: defineRoute({
    method: 'GET',
    path: '/api/admin/dead-letters',
    tag: 'Admin',
    auth: 'admin',
    summary: "Each service's dead-letter queue: events its consumer gave up on, with the reason",
    response: deadLettersResponseSchema,
  }),
  replayDeadLetter: defineRoute({
    method: 'POST',
    path: '/api/admin/dead-letters/{service}/{messageId}/replay',
    reasons: ['dead_letter_not_found', 'no_dead_letter_queue', 'audit_unavailable'],
    tag: 'Admin',
    auth: 'admin',
    summary: "Send one dead letter back to its consumer's queue (the inbox still applies it once)",
    params: deadLetterParamsSchema,
    response: deadLetterActionResponseSchema,
    errors: { 404: 'The message is not in that queue (any more).' },
  }),
  replayAllDeadLetters: defineRoute({
    method: 'POST',
    path: '/api/admin/dead-letters/{service}/replay',
    reasons: ['no_dead_letter_queue', 'audit_unavailable'],
    tag: 'Admin',
    auth: 'admin',
    summary: "Send every dead letter of a service back to its consumer's queue",
    params: deadLetterServiceParamsSchema,
    response: deadLetterActionResponseSchema,
  }),
  discardDeadLetter: defineRoute({
    method: 'DELETE',
    path: '/api/admin/dead-letters/{service}/{messageId}',
    reasons: ['dead_letter_not_found', 'no_dead_letter_queue', 'audit_unavailable'],
    tag: 'Admin',
    auth: 'admin',
    summary: 'Drop one dead letter for good',
    params: deadLetterParamsSchema,
    response: deadLetterActionResponseSchema,
    errors: { 404: 'The message is not in that queue (any more).' },
  }),
  audit: defineRoute({
    method: 'GET',
    path: '/api/admin/audit',
    tag: 'Admin',
    auth: 'admin',
    summary: 'The audit trail of admin actions, newest first (append-only)',
    query: auditQuerySchema,
    response: auditPageSchema,
  }),
};

