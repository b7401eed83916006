import { CHECKOUT_COUNTRIES, PREPAID_PLANS, type CheckoutCountry, type PrepaidPlan } from '@esim/contracts';

export const DEFAULT_PLAN_ID = '1GB';
export const DEFAULT_COUNTRY: CheckoutCountry = 'US';

/**
 * What /checkout sells (spec, /checkout): `?plan=` (default 1GB) and `?country=` (default US), as
 * the dashboard links them. A value the catalogue does not know falls back to the default, so a
 * hand-edited link still shows a real plan with its real price.
 */
export function checkoutSelection(params: URLSearchParams): { plan: PrepaidPlan; country: CheckoutCountry } {
  const planId = (params.get('plan') ?? '').trim().toUpperCase();
  const plan = PREPAID_PLANS.find((p) => p.id === planId) ?? PREPAID_PLANS.find((p) => p.id === DEFAULT_PLAN_ID)!;
  const code = (params.get('country') ?? '').trim().toUpperCase();
  const country = (CHECKOUT_COUNTRIES as readonly string[]).includes(code) ? (code as CheckoutCountry) : DEFAULT_COUNTRY;
  return { plan, country };
}

/** Where a paid intent goes next: /success confirms it (spec section 7: the return URL carries the plan). */
export function successPath(paymentIntentId: string, planType: string): string {
  return `/success?payment_intent=${encodeURIComponent(paymentIntentId)}&plan=${encodeURIComponent(planType)}`;
}
