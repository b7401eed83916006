import { z } from 'zod';
import { defineEvent } from '../events/event-definition';
import { defineRpc } from '../rpc/rpc-definition';

/**
 * Referrals (docs/earning.md, "Referrals"): when a friend's first REFERRAL_QUALIFYING_POINTS earned
 * points become spendable, both people get REFERRAL_BONUS_POINTS (a setting of rewards), once per
 * friend. A referral the fraud signals link to the inviter (the friend signed up on a device the
 * inviter uses) is void, and the inviter is told why.
 */
export const REFERRAL_QUALIFYING_POINTS = 1000;
export const REFERRAL_STATUSES = ['pending', 'paid', 'void'] as const;
export type ReferralStatus = (typeof REFERRAL_STATUSES)[number];
/** Why a referral does not count. */
export const REFERRAL_VOID_REASONS = ['same_device'] as const;
export type ReferralVoidReason = (typeof REFERRAL_VOID_REASONS)[number];

/** A referral code: 8 letters and digits, without the ones people confuse (0/O, 1/I/L). */
export const REFERRAL_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const referralCodeSchema = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-HJKMNP-Z2-9]{8}$/, 'The invitation code must be 8 letters and digits.');

/**
 * The first-party device id the SPA keeps in its storage and sends as `X-Device-Id` (docs/earning.md,
 * "Referrals"): a signal kept inside the product, never shared.
 */
export const DEVICE_ID_HEADER = 'x-device-id';
export const deviceIdSchema = z.string().uuid();

/** What the sign-up carries of a referral (identity decided it: the inviter, and whether it is void). */
export const signupReferralSchema = z.object({ inviterId: z.string().uuid(), voidReason: z.enum(REFERRAL_VOID_REASONS).nullable() });
export type SignupReferral = z.infer<typeof signupReferralSchema>;

/**
 * A friend's first earned points became spendable: rewards pays both bonuses (its own consumer,
 * in a transaction of its own that takes both accounts in order). Published in the transaction
 * that made the points available; the ledger's unique references pay each bonus once however
 * often it is published.
 */
export const ReferralQualified = defineEvent('rewards', 'referral-qualified', 1, z.object({ friendId: z.string().uuid(), qualifiedAt: z.string().datetime() }));

export const referralEntrySchema = z.object({
  friendId: z.string().uuid(),
  status: z.enum(REFERRAL_STATUSES),
  voidReason: z.enum(REFERRAL_VOID_REASONS).nullable(),
  /** The bonus the inviter got for this friend (0 until paid). */
  pointsForYou: z.number().int().nonnegative(),
  createdAt: z.string(),
});
export type ReferralEntry = z.infer<typeof referralEntrySchema>;

export const ReferralRpc = {
  /** The acting user's invited friends, newest first, with each one's status. */
  list: defineRpc('rewards', 'list-referrals', z.object({}), z.object({ referrals: z.array(referralEntrySchema), bonusPoints: z.number().int() })),
} as const;
