import { PLAN_VALIDITY_DAYS, PREPAID_PLANS, REDEEMABLE_PLANS } from '@esim/contracts';
import type { EsimPlanTier } from './esim-provider';
import type { KeepGoBundle, KeepGoRefillOption } from './keepgo-api';

/** KeepGo counts data in binary megabytes: its "3 GB / 30 days" refill is amount_mb 3072. */
export const KEEPGO_MB_PER_GB = 1024;

export interface WantedRefill {
  amountMb: number;
  amountDays: number;
}

/** A plan tier of our catalogue as the KeepGo refill it buys: N GB for the catalogue's validity. */
export function planRefill(tier: EsimPlanTier): WantedRefill {
  const amountGB = (REDEEMABLE_PLANS.find((p) => p.tier === tier) ?? PREPAID_PLANS.find((p) => p.id === tier))?.amountGB;
  if (amountGB === undefined) throw new Error(`unknown plan tier ${tier}`);
  return { amountMb: amountGB * KEEPGO_MB_PER_GB, amountDays: PLAN_VALIDITY_DAYS };
}

/**
 * The offered refill that delivers the plan: exactly its size, for exactly its validity, or
 * failing that the same size without expiry (never less data or fewer days than promised).
 */
export function chooseRefill(options: readonly KeepGoRefillOption[], wanted: WantedRefill): KeepGoRefillOption | undefined {
  const sameSize = options.filter((o) => Number(o.amount_mb) === wanted.amountMb);
  return (
    sameSize.find((o) => o.amount_days !== null && Number(o.amount_days) === wanted.amountDays) ??
    sameSize.find((o) => o.amount_days === null)
  );
}

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });

/** The ISO-2 code in a bundle's flag URL (`…/flags/3x2/us.svg`), upper case. */
export function flagCountry(img: string | undefined): string | null {
  const match = img?.match(/\/([a-z]{2})\.svg(?:\?|$)/i);
  return match ? match[1].toUpperCase() : null;
}

function covers(bundle: KeepGoBundle, country: string): boolean {
  if (flagCountry(bundle.img) === country) return true;
  const name = regionNames.of(country)?.toLowerCase();
  return name !== undefined && (bundle.coverage ?? []).some((c) => c.toLowerCase() === name);
}

export interface BundleChoice {
  bundle: KeepGoBundle;
  refill: KeepGoRefillOption;
}

/**
 * The bundle to order a new line on for a country, and its refill for the plan. KeepGo bundles
 * carry no country code, so: the operator's pin (KEEPGO_BUNDLE_IDS) if any; else a single-country
 * bundle whose flag or coverage is the country; else a regional bundle covering it. Among equals,
 * the cheapest refill.
 */
export function chooseBundle(
  bundles: readonly KeepGoBundle[],
  country: string,
  wanted: WantedRefill,
  pinned: ReadonlyMap<string, number>,
): BundleChoice | undefined {
  const pin = pinned.get(country);
  const candidates = pin !== undefined ? bundles.filter((b) => b.id === pin) : bundles.filter((b) => covers(b, country));
  const offers = candidates
    .map((bundle) => ({ bundle, refill: chooseRefill(bundle.refills ?? [], wanted) }))
    .filter((o): o is BundleChoice => o.refill !== undefined)
    .sort((a, b) => rank(a.bundle) - rank(b.bundle) || Number(a.refill.price_usd) - Number(b.refill.price_usd));
  return offers[0];
}

const rank = (bundle: KeepGoBundle) => (bundle.bundle_type === 'country' ? 0 : 1);
