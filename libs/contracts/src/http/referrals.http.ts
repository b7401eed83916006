import { z } from 'zod';
import { defineRoute } from '../openapi/define-route';
import { REFERRAL_STATUSES, REFERRAL_VOID_REASONS } from '../rewards/referrals';

/**
 * `GET /api/referrals`: the user's code, the link that opens sign-up with it, and the friends who
 * signed up with it. `name` is the friend's first name, never their email; null when the friend
 * keeps a private profile.
 */
export const referralsResponseSchema = z.object({
  code: z.string(),
  link: z.string().url(),
  bonusPoints: z.number().int(),
  qualifyingPoints: z.number().int(),
  invited: z.array(
    z.object({
      name: z.string().nullable(),
      status: z.enum(REFERRAL_STATUSES),
      voidReason: z.enum(REFERRAL_VOID_REASONS).nullable(),
      pointsForYou: z.number().int(),
    }),
  ),
});
export type ReferralsResponse = z.infer<typeof referralsResponseSchema>;

export const ReferralRoutes = {
  referrals: defineRoute({
    method: 'GET',
    path: '/api/referrals',
    tag: 'Earning',
    auth: 'session',
    summary: "The user's invitation code and link, and the friends who signed up with it",
    response: referralsResponseSchema,
  }),
};
