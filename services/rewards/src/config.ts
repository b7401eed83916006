import { z } from 'zod';
import { envInt, platformConfigSchema } from '@esim/platform';

/** A share between 0 and 1 (a reversal rate). */
const envRate = (defaultValue: number) => z.coerce.number().min(0).max(1).default(defaultValue);

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
  TRANSACTION_RETENTION_YEARS: envInt(7, 1).describe(
    'Tasks, decided claims, settled redemptions and the ledger\'s settled transfers (transaction records) are deleted after this many years; each account\'s balance is carried forward first, in one `carried_forward` entry (docs/accounts.md, "Retention").',
  ),
  RISK_MIN_CREDITS: envInt(5, 1).describe(
    'Offer-wall credits an account needs before its reversal rate counts for the risk rules: a rate over fewer says little (docs/earning.md, "Risk rules").',
  ),
  RISK_REVERSAL_RATE_HOLD: envRate(0.2).describe(
    "Share of an account's offer-wall credits the walls reversed (0 to 1) from which its credits are held longer (RISK_HOLD_MULTIPLIER, RISK_HOLD_MIN_POINTS).",
  ),
  RISK_REVERSAL_RATE_REVIEW: envRate(0.3).describe('Reversal rate (0 to 1) from which each of the account\'s redemptions waits for an admin\'s review, its points reserved.'),
  RISK_REVERSAL_RATE_PAUSE: envRate(0.5).describe(
    "Reversal rate (0 to 1) from which the account's redemptions are paused: refused with the reason and the way to appeal, until an admin lifts the pause.",
  ),
  RISK_REVIEW_LINKED_ACCOUNTS: envInt(1, 0).describe(
    'Accounts a shared device links to an account (identity\'s signal) from which its redemptions wait for an admin\'s review; 0: links never require one.',
  ),
  RISK_HOLD_MULTIPLIER: envInt(3, 1).describe(
    "How many times the wall's hold period a risky account's held credits wait (a disposable email, a linked account, or a reversal rate at RISK_REVERSAL_RATE_HOLD). A wall whose period is 0 holds nothing, risky or not.",
  ),
  RISK_HOLD_MIN_POINTS: envInt(1, 1).describe(
    "For a risky account, a credit of at least this many points is held (instead of the wall's minimum, when lower): with 1, every credit waits.",
  ),
  CREDIT_RELEASE_INTERVAL_MS: envInt(15_000, 100).describe(
    'How often each replica looks for held credits that are due and makes them spendable (one replica at a time, under a lock): a release happens within this long of its time.',
  ),
});
export type RewardsConfig = z.infer<typeof rewardsConfigSchema>;
