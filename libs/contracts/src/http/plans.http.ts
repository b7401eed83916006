import { z } from 'zod';
import { PREPAID_PLAN_IDS, PRICE_CURRENCIES } from '../catalogue/plans';
import { defineRoute } from '../openapi/define-route';

/*
 * Plan prices for whoever asks (docs/payments.md, "Currencies and prices"): every screen that shows
 * a price reads it here, so a price is the catalogue's in the buyer's currency.
 */

/**
 * `GET /api/plans?country=BR`: `country` is an ISO 3166 alpha-2 region code (any case); Brazil is
 * priced in reais, every other country, and no country at all, in US dollars.
 */
export const plansQuerySchema = z.object({
  country: z
    .string({ error: 'country must be a two-letter country code' })
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/, 'country must be a two-letter country code (e.g. BR)')
    .optional(),
});
export type PlansQuery = z.input<typeof plansQuerySchema>;

/** One plan at its catalogue price: `priceCents` in minor units of `currency` (ISO 4217). */
export const planPriceSchema = z.object({
  id: z.enum(PREPAID_PLAN_IDS),
  amountGB: z.number().int(),
  priceCents: z.number().int(),
  currency: z.enum(PRICE_CURRENCIES),
});
export type PlanPrice = z.infer<typeof planPriceSchema>;

export const PlanRoutes = {
  list: defineRoute({
    method: 'GET',
    path: '/api/plans',
    tag: 'Purchases',
    auth: 'public',
    summary: 'The prepaid plans at their catalogue prices, in reais for Brazil and US dollars elsewhere',
    query: plansQuerySchema,
    response: z.array(planPriceSchema),
  }),
};
