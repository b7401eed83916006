/**
 * The one catalogue every screen and every service reads prices from (product-decisions.md,
 * "Money, points and data"). 1 point = 1 MB; redemption costs 1000 points per GB.
 */
export const POINTS_PER_GB = 1000;
/** Redemption unlocks at this balance; the dashboard progress bar fills toward it. */
export const REDEMPTION_THRESHOLD_POINTS = 1000;
export const SIGNUP_BONUS_POINTS = 100;
export const PLAN_VALIDITY_DAYS = 30;

export const REDEEMABLE_PLAN_TIERS = ['1GB', '3GB', '5GB'] as const;
export type RedeemablePlanTier = (typeof REDEEMABLE_PLAN_TIERS)[number];

export interface RedeemablePlan {
  tier: RedeemablePlanTier;
  amountGB: number;
  pointsCost: number;
}

export const REDEEMABLE_PLANS: readonly RedeemablePlan[] = REDEEMABLE_PLAN_TIERS.map((tier) => {
  const amountGB = Number.parseInt(tier, 10);
  return { tier, amountGB, pointsCost: amountGB * POINTS_PER_GB };
});

export function redeemablePlan(tier: RedeemablePlanTier): RedeemablePlan {
  const plan = REDEEMABLE_PLANS.find((p) => p.tier === tier);
  if (!plan) throw new Error(`unknown plan tier ${tier}`);
  return plan;
}

export const PREPAID_PLAN_IDS = ['1GB', '3GB', '5GB', '10GB'] as const;
export type PrepaidPlanId = (typeof PREPAID_PLAN_IDS)[number];

/** Currencies plans are priced and charged in (ISO 4217, upper case; Stripe takes them lower case). */
export const PRICE_CURRENCIES = ['USD', 'BRL'] as const;
export type PriceCurrency = (typeof PRICE_CURRENCIES)[number];

export interface PrepaidPlan {
  id: PrepaidPlanId;
  /** i18n key of the tier name: Starter, Popular, Pro, Ultimate. */
  nameKey: string;
  descriptionKey: string;
  amountGB: number;
  /** USD cents; the amount charged always comes from here, never from the client. */
  priceCents: number;
  /**
   * The plan's price in each currency, in minor units (cents / centavos). These are price points a
   * person sets in this catalogue (round local prices such as R$ 19,90), not conversions of the
   * USD price at request time: the price a buyer sees never moves with the exchange rate.
   */
  prices: Readonly<Record<PriceCurrency, number>>;
  popular: boolean;
  validityDays: number;
}

// BRL price points are set by hand (round prices a Brazilian buyer expects), not converted.
export const PREPAID_PLANS: readonly PrepaidPlan[] = [
  { id: '1GB', nameKey: 'plans.starter', descriptionKey: 'plans.starterDescription', amountGB: 1, priceCents: 299, prices: { USD: 299, BRL: 1490 }, popular: false, validityDays: PLAN_VALIDITY_DAYS },
  { id: '3GB', nameKey: 'plans.popular', descriptionKey: 'plans.popularDescription', amountGB: 3, priceCents: 499, prices: { USD: 499, BRL: 2490 }, popular: true, validityDays: PLAN_VALIDITY_DAYS },
  { id: '5GB', nameKey: 'plans.pro', descriptionKey: 'plans.proDescription', amountGB: 5, priceCents: 699, prices: { USD: 699, BRL: 3490 }, popular: false, validityDays: PLAN_VALIDITY_DAYS },
  { id: '10GB', nameKey: 'plans.ultimate', descriptionKey: 'plans.ultimateDescription', amountGB: 10, priceCents: 1099, prices: { USD: 1099, BRL: 5490 }, popular: false, validityDays: PLAN_VALIDITY_DAYS },
];

export function prepaidPlan(id: PrepaidPlanId): PrepaidPlan {
  const plan = PREPAID_PLANS.find((p) => p.id === id);
  if (!plan) throw new Error(`unknown prepaid plan ${id}`);
  return plan;
}

export const CHECKOUT_COUNTRIES = ['US', 'MX', 'BR', 'GB', 'DE', 'FR', 'JP', 'CA', 'AU', 'IT', 'ES', 'NL'] as const;
export type CheckoutCountry = (typeof CHECKOUT_COUNTRIES)[number];
/** Countries the claim page offers for a new eSIM bought with points. */
export const CLAIM_COUNTRIES = ['US', 'MX', 'BR'] as const satisfies readonly CheckoutCountry[];
export type ClaimCountry = (typeof CLAIM_COUNTRIES)[number];

/** The currency a buyer in `country` pays in: reais in Brazil, US dollars everywhere else. */
export function currencyForCountry(country: string | undefined): PriceCurrency {
  return country === 'BR' ? 'BRL' : 'USD';
}

/** What `plan` costs in `currency`, in minor units, from the catalogue. */
export function planPrice(plan: PrepaidPlan, currency: PriceCurrency): { priceCents: number; currency: PriceCurrency } {
  return { priceCents: plan.prices[currency], currency };
}

/** Shown as cents / 100 with two decimals (spec section 9). */
export function formatUsd(cents: number): string {
  return (cents / 100).toFixed(2);
}
