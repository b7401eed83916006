import { setTimeout as sleep } from 'node:timers/promises';
import { Controller, Inject, Logger } from '@nestjs/common';
import Stripe from 'stripe';
import { PaymentsRpc, PurchaseConfirmation, RpcMeta, RpcRequest } from '@esim/contracts';
import { actingUserId, AppError, CONFIG, RpcHandler, UnitOfWork } from '@esim/platform';
import type { PaymentsConfig } from '../config';
import { StripeApiService } from '../stripe/stripe-api.service';
import type { EsimPurchaseEntity } from './esim-purchase.entity';
import { EsimPurchasesService } from './esim-purchases.service';
import { FulfilmentService } from './fulfilment.service';
import { confirmationView } from './purchase-views';

const POLL_MS = 100;

/**
 * POST /api/confirm-esim-purchase-by-intent, what /success calls after Stripe's redirect. The
 * intent is read from Stripe itself (never from the redirect's parameters): it must have succeeded,
 * belong to the caller and pay exactly the purchase's price. Then it is fulfilled (once, whoever
 * else fulfils it: fulfilment.service.ts) and the answer waits up to PURCHASE_CONFIRM_WAIT_MS for
 * the eSIM, as redeeming does.
 */
@Controller()
export class ConfirmPurchaseRpcHandler {
  private readonly log = new Logger('Purchases');

  constructor(
    private readonly api: StripeApiService,
    private readonly purchases: EsimPurchasesService,
    private readonly fulfilment: FulfilmentService,
    private readonly uow: UnitOfWork,
    @Inject(CONFIG) private readonly config: PaymentsConfig,
  ) {}

  @RpcHandler(PaymentsRpc.confirmEsimPurchase)
  async confirm({ paymentIntentId }: RpcRequest<typeof PaymentsRpc.confirmEsimPurchase>, meta: RpcMeta): Promise<PurchaseConfirmation> {
    const userId = actingUserId(meta);
    const purchase = await this.purchases.findByIntent(paymentIntentId);
    if (!purchase) throw new AppError('payment_not_found', 'Payment not found.');
    if (purchase.userId !== userId) {
      this.log.warn(`user ${userId} tried to confirm purchase ${purchase.id} of another user`);
      throw new AppError('payment_not_yours', 'This payment belongs to another account.');
    }
    if (purchase.status === 'pending' || purchase.status === 'payment_failed') {
      const intent = await this.retrieve(paymentIntentId);
      if (intent.status !== 'succeeded') {
        throw new AppError('payment_not_succeeded', `Payment has not succeeded (status: ${intent.status}).`, { details: { status: intent.status } });
      }
      const mismatch = this.fulfilment.mismatch(intent, purchase);
      if (mismatch) {
        this.log.error(`purchase ${purchase.id} not fulfilled: ${mismatch}`);
        throw new AppError('payment_mismatch', 'This payment does not match the purchase. Please contact support.');
      }
      await this.uow.run((tx) => this.fulfilment.fulfil(tx, intent, purchase, 'confirm'));
    }
    return confirmationView(await this.settled(purchase.id));
  }

  private async retrieve(id: string): Promise<Stripe.PaymentIntent> {
    try {
      return await this.api.call('paymentIntents.retrieve', (stripe) => stripe.paymentIntents.retrieve(id));
    } catch (err) {
      if (err instanceof Stripe.errors.StripeInvalidRequestError && err.code === 'resource_missing') {
        throw new AppError('payment_not_found', 'Payment not found.');
      }
      this.log.error(`retrieving ${id} from Stripe failed: ${(err as Error).message}`);
      throw new AppError('payment_provider_unavailable', 'The payment could not be checked right now. Please try again in a moment.');
    }
  }

  /** The purchase once the eSIM is issued or has failed, or as it is when the wait runs out. */
  private async settled(purchaseId: string): Promise<EsimPurchaseEntity> {
    const deadline = Date.now() + this.config.PURCHASE_CONFIRM_WAIT_MS;
    for (;;) {
      const purchase = await this.purchases.findById(purchaseId);
      if (!purchase) throw new AppError('payment_not_found', 'Payment not found.');
      if (purchase.status !== 'processing' || Date.now() >= deadline) return purchase;
      await sleep(POLL_MS);
    }
  }
}
