import { EsimPurchase, type PriceCurrency, type RefundEligibility, manualDeliverySupportMessage, PURCHASE_MESSAGES, PurchaseConfirmation } from '@esim/contracts';
import type { EsimPurchaseEntity } from './esim-purchase.entity';

/** An entry of GET /api/esim-purchases. */
export function purchaseView(p: EsimPurchaseEntity, refund: { refund: RefundEligibility; refundedAt: Date | null }): EsimPurchase {
  return {
    id: p.id,
    planType: p.planType,
    amountGB: p.amountGB,
    priceUSD: p.priceUSD,
    priceCents: p.priceUSD,
    currency: p.currency.toUpperCase() as PriceCurrency,
    country: p.country,
    paymentIntentId: p.paymentIntentId,
    paymentMethod: p.paymentMethod,
    status: p.status,
    iccid: p.iccid,
    lpaCode: p.lpaCode,
    qrCode: p.qrCode,
    createdAt: p.createdAt.toISOString(),
    activatedAt: p.activatedAt ? p.activatedAt.toISOString() : null,
    refundableUntil: p.status === 'activated' ? refund.refund.until : null,
    refundedAt: refund.refundedAt ? refund.refundedAt.toISOString() : null,
    refund: refund.refund,
  };
}

/** The purchase confirmation of a paid purchase (see purchaseConfirmationSchema for what each status means). */
export function confirmationView(p: EsimPurchaseEntity): PurchaseConfirmation {
  const base = { purchaseId: p.id, planType: p.planType, amountGB: p.amountGB, iccid: p.iccid, lpaCode: p.lpaCode, qrCode: p.qrCode };
  switch (p.status) {
    case 'activated':
      return { ...base, success: true, status: 'activated', message: PURCHASE_MESSAGES.activated, support_message: null };
    case 'manual_delivery_required':
      return {
        ...base,
        success: false,
        status: 'manual_delivery_required',
        message: PURCHASE_MESSAGES.manual_delivery_required,
        support_message: manualDeliverySupportMessage(p.id),
      };
    case 'refunded':
      return { ...base, success: false, status: 'refunded', message: PURCHASE_MESSAGES.refunded, support_message: null };
    default:
      return { ...base, success: true, status: 'processing', message: PURCHASE_MESSAGES.processing, support_message: null };
  }
}
