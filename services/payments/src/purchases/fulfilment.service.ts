import { Injectable, Logger } from '@nestjs/common';
import type Stripe from 'stripe';
import { PaymentSucceeded } from '@esim/contracts';
import { Tx } from '@esim/platform';
import type { EsimPurchaseEntity } from './esim-purchase.entity';
import { EsimPurchasesService, UNPAID_STATUSES } from './esim-purchases.service';

/** The metadata keys our PaymentIntents carry (create-payment.rpc-handler.ts writes them). */
export const METADATA = { userId: 'userId', purchaseId: 'purchaseId', planType: 'planType', country: 'country' } as const;

/** What fulfilment reads of a PaymentIntent: Stripe's own, or the fields a Stripe event carried (StripeEventAccepted). */
export type PaidIntent = Pick<Stripe.PaymentIntent, 'id' | 'amount' | 'amount_received' | 'currency'> & {
  status: string;
  metadata: Record<string, string> | null;
};

/**
 * Turns a succeeded PaymentIntent into an eSIM order, once. The confirmation call, Stripe's
 * webhook event (stripe-event-accepted.event-handler.ts) and the reconciliation
 * (reconciliation/payment-reconciler.ts) come here; the purchase row moves
 * from unpaid to `processing` in one conditional UPDATE, and only the caller that moved it
 * publishes PaymentSucceeded, in the same transaction. Any number of concurrent callers therefore
 * fulfil a PaymentIntent exactly once.
 */
@Injectable()
export class FulfilmentService {
  private readonly log = new Logger('Fulfilment');

  constructor(private readonly purchases: EsimPurchasesService) {}

  /** Why this intent does not pay for this purchase; null when it does. */
  mismatch(pi: PaidIntent, purchase: EsimPurchaseEntity): string | null {
    if (pi.id !== purchase.paymentIntentId) return `intent ${pi.id} is not the purchase's (${purchase.paymentIntentId})`;
    if (pi.metadata?.[METADATA.purchaseId] !== purchase.id) return `intent metadata names purchase ${pi.metadata?.[METADATA.purchaseId]}`;
    if (pi.metadata?.[METADATA.userId] !== purchase.userId) return `intent metadata names user ${pi.metadata?.[METADATA.userId]}`;
    if (pi.currency !== purchase.currency) return `intent is in ${pi.currency}, the purchase in ${purchase.currency}`;
    if (pi.amount !== purchase.priceUSD || pi.amount_received < purchase.priceUSD)
      return `intent amount ${pi.amount} (received ${pi.amount_received}) is not the price ${purchase.priceUSD}`;
    return null;
  }

  /** `fulfilled` when this call ordered the eSIM; `already` when an earlier one did. */
  async fulfil(tx: Tx, pi: PaidIntent, purchase: EsimPurchaseEntity, via: 'confirm' | 'webhook' | 'reconciliation'): Promise<'fulfilled' | 'already'> {
    if (pi.status !== 'succeeded') throw new Error(`fulfil called with a ${pi.status} intent`);
    const paid = await this.purchases.transition(tx.manager, { id: purchase.id }, UNPAID_STATUSES, 'processing', { paidNow: true });
    if (!paid) return 'already';
    tx.publish(PaymentSucceeded, {
      purchaseId: paid.id,
      userId: paid.userId,
      planType: paid.planType,
      amountGB: paid.amountGB,
      country: paid.country,
      paymentIntentId: paid.paymentIntentId,
      amountCents: paid.priceUSD,
    });
    this.log.log(`purchase ${paid.id} paid (${pi.id}, ${paid.priceUSD} ${paid.currency}, via ${via}): ordering a ${paid.planType} eSIM for ${paid.country}`);
    return 'fulfilled';
  }
}
