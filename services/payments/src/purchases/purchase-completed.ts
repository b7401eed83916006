import { EventPayload, PLAN_VALIDITY_DAYS, PriceCurrency, PurchaseCompleted } from '@esim/contracts';
import type { EsimPurchaseEntity } from './esim-purchase.entity';

/**
 * The receipt's facts of a purchase that has just been activated (esim-issued.event-handler.ts,
 * or an operator's delivery in operator-queue/purchase-resolutions.ts): what was bought, what was
 * charged and how, when, and the eSIM. Published with the activation, so once per purchase.
 */
export function purchaseCompleted(p: EsimPurchaseEntity): EventPayload<typeof PurchaseCompleted> {
  if (!p.iccid) throw new Error(`purchase ${p.id} is not activated with an eSIM`);
  return {
    purchaseId: p.id,
    userId: p.userId,
    planType: p.planType,
    amountGB: p.amountGB,
    validityDays: PLAN_VALIDITY_DAYS,
    country: p.country,
    amountMinor: p.priceUSD,
    currency: p.currency.toUpperCase() as PriceCurrency,
    paymentMethod: p.paymentMethod,
    paidAt: (p.paidAt ?? p.createdAt).toISOString(),
    iccid: p.iccid,
  };
}
