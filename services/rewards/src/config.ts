import { z } from 'zod';
import { envInt, platformConfigSchema } from '@esim/platform';

/** An optional whole number: unset means "as the setting for every wall says". */
const envOptionalInt = (min: number) => z.coerce.number().int().min(min).optional();

/** Per-wall overrides of the hold (docs/earning.md, "Held credits"): `<WALL>_HOLD_MIN_POINTS`, `<WALL>_HOLD_SECONDS`. */
const wallHold = <W extends string>(wall: W) =>
  ({
    [`${wall}_HOLD_MIN_POINTS`]: envOptionalInt(1).describe(`Overrides CREDIT_HOLD_MIN_POINTS for ${wall.toLowerCase()} credits.`),
    [`${wall}_HOLD_SECONDS`]: envOptionalInt(0).describe(`Overrides CREDIT_HOLD_SECONDS for ${wall.toLowerCase()} credits (0: never held).`),
  }) as Record<`${W}_HOLD_MIN_POINTS` | `${W}_HOLD_SECONDS`, ReturnType<typeof envOptionalInt>>;

export const rewardsConfigSchema = platformConfigSchema.extend({
  ADMIN_POINTS_REFRESH_MS: envInt(5000, 100).describe(
    'How often the admin user table\'s order by points catches up with the ledger (docs/admin.md); the points shown are always live.',
  ),
  CREDIT_HOLD_MIN_POINTS: envInt(500, 1).describe(
    'An offer-wall credit of at least this many points is held (pending, not spendable) for CREDIT_HOLD_SECONDS before it becomes available; smaller credits are spendable at once (docs/earning.md, "Held credits"). The sign-up bonus is never held.',
  ),
  CREDIT_HOLD_SECONDS: envInt(7 * 24 * 3600, 0).describe(
    'How long a held offer-wall credit waits before it becomes spendable: long enough for the walls to reverse most fraudulent conversions before the points can pay the eSIM supplier. 0: nothing is held.',
  ),
  ...wallHold('RAPIDOREACH'),
  ...wallHold('CPX'),
  ...wallHold('BITLABS'),
  ...wallHold('LOOTABLY'),
  ...wallHold('TOROX'),
  REFERRAL_BONUS_POINTS: envInt(200, 1).describe(
    "What each of the two people gets when an invited friend's first 1000 earned points become spendable, once per friend (docs/earning.md, \"Referrals\").",
  ),
  CREDIT_RELEASE_INTERVAL_MS: envInt(15_000, 100).describe(
    'How often each replica looks for held credits that are due and makes them spendable (one replica at a time, under a lock): a release happens within this long of its time.',
  ),
});
export type RewardsConfig = z.infer<typeof rewardsConfigSchema>;
