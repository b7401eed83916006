import { z } from 'zod';
import { defineRoute } from '../openapi/define-route';
import { esimLineSchema, giftRecordSchema } from '../esim/esim.rpc';
import { redemptionViewSchema } from '../esim/redemption-view';
import { identityUserSchema } from '../identity/identity.rpc';
import { sentEmailSchema } from '../notifications/notifications.rpc';
import { creditClaimSchema } from '../rewards/credit-claims';
import { REFERRAL_STATUSES, REFERRAL_VOID_REASONS } from '../rewards/referrals';
import { taskSchema } from '../rewards/tasks';
import { passkeySchema } from './passkeys.http';
import { esimPurchaseSchema } from './purchases.http';
import { statementEntrySchema } from './redemption.http';
import { activeSessionSchema } from './sessions.http';

/**
 * `GET /api/user/export`: everything the product holds about the caller, one section per service
 * that holds it (docs/accounts.md, "Your data"). A file download (`Content-Disposition: attachment`).
 */
export const userExportSchema = z.object({
  exportedAt: z.string(),
  /** identity: the account, its settings and language, and its passkeys (never a secret). */
  account: identityUserSchema.extend({ passkeys: z.array(passkeySchema) }),
  /** gateway: the account's signed-in sessions (device and browser, when signed in, last seen). */
  sessions: z.array(activeSessionSchema),
  /** rewards: every ledger movement, the offer-wall tasks and the redemptions of points. */
  points: z.object({ balance: z.number().int(), statement: z.array(statementEntrySchema) }),
  tasks: z.array(taskSchema),
  redemptions: z.array(redemptionViewSchema),
  /** rewards: the missing-credit claims the account filed, with their decisions. */
  creditClaims: z.array(creditClaimSchema),
  /**
   * identity and rewards: the account's invitation code and the friends it invited, by status and
   * bonus only (a friend's name and id are the friend's, not the caller's).
   */
  referrals: z.object({
    code: z.string(),
    invited: z.array(
      z.object({
        status: z.enum(REFERRAL_STATUSES),
        voidReason: z.enum(REFERRAL_VOID_REASONS).nullable(),
        pointsForYou: z.number().int(),
        invitedAt: z.string(),
      }),
    ),
  }),
  /** esim: every data gift and every eSIM line. */
  gifts: z.array(giftRecordSchema),
  esimLines: z.array(esimLineSchema),
  /** payments: the card purchases. */
  purchases: z.array(esimPurchaseSchema),
  /** notifications: the emails sent to the account (what and when). */
  emailsSent: z.array(sentEmailSchema),
});
export type UserExport = z.infer<typeof userExportSchema>;

export const ExportRoutes = {
  export: defineRoute({
    method: 'GET',
    path: '/api/user/export',
    tag: 'Account',
    auth: 'session',
    summary: 'Everything the product holds about the caller, as one JSON file',
    response: userExportSchema,
  }),
};
