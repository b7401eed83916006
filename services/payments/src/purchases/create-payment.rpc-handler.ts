import { randomUUID } from 'node:crypto';
import { Controller, Inject, Logger } from '@nestjs/common';
import { CreateEsimPaymentResponse, currencyForCountry, PAYMENT_CREATED_MESSAGE, PaymentsRpc, prepaidPlan, RpcMeta, RpcRequest } from '@esim/contracts';
import { actingUserId, AppError, CONFIG, ProviderCircuitOpenError, RpcHandler } from '@esim/platform';
import type { PaymentsConfig } from '../config';
import { StripeApiService } from '../stripe/stripe-api.service';
import { EsimPurchasesService } from './esim-purchases.service';
import { METADATA } from './fulfilment.service';

/**
 * POST /api/create-esim-payment: a PaymentIntent for the catalogue's price of the plan in the
 * country's currency (reais for BR, US dollars elsewhere; the client names a plan and a country,
 * never an amount or a currency) and the pending purchase that it pays for.
 */
@Controller()
export class CreatePaymentRpcHandler {
  private readonly log = new Logger('Purchases');

  constructor(
    private readonly api: StripeApiService,
    private readonly purchases: EsimPurchasesService,
    @Inject(CONFIG) private readonly config: PaymentsConfig,
  ) {}

  @RpcHandler(PaymentsRpc.createEsimPayment)
  async create(req: RpcRequest<typeof PaymentsRpc.createEsimPayment>, meta: RpcMeta): Promise<CreateEsimPaymentResponse> {
    const userId = actingUserId(meta);
    const plan = prepaidPlan(req.planType);
    const currency = currencyForCountry(req.country);
    const amount = plan.prices[currency];
    const paymentMethod = req.paymentMethod ?? 'card';
    // Pix settles reais only (Stripe refuses a Pix intent in any other currency, and the purchases
    // table would too): said before anything is created.
    if (paymentMethod === 'pix' && currency !== 'BRL') {
      throw new AppError('pix_requires_brl', `Pix is only for payments in reais; the price for ${req.country} is in ${currency}. Pay by card instead.`);
    }
    // Stripe names currencies in lower case; the purchase row keeps Stripe's form so that the
    // paid intent can be compared with it as it is (fulfilment.service.ts).
    const stripeCurrency = currency.toLowerCase();
    // Chosen first so that the intent's metadata names the purchase; the idempotency key makes
    // the SDK's own retries (and ours) create one intent for it.
    const purchaseId = randomUUID();
    let intent;
    try {
      intent = await this.api.call('paymentIntents.create', (stripe) =>
        stripe.paymentIntents.create(
          {
            amount,
            currency: stripeCurrency,
            // A card intent lets Stripe pick the card methods (the Payment Element); a Pix intent
            // takes Pix only, so the code shown is the only way to pay it.
            ...(paymentMethod === 'pix'
              ? {
                  payment_method_types: ['pix'],
                  payment_method_options: { pix: { expires_after_seconds: this.config.PIX_EXPIRES_AFTER_SECONDS } },
                }
              : { automatic_payment_methods: { enabled: true } }),
            description: `${plan.amountGB} GB eSIM for ${req.country}`,
            metadata: {
              [METADATA.userId]: userId,
              [METADATA.purchaseId]: purchaseId,
              [METADATA.planType]: plan.id,
              [METADATA.country]: req.country,
            },
          },
          { idempotencyKey: `esim-purchase:${purchaseId}:create-intent` },
        ),
      );
    } catch (err) {
      // Stripe kept failing and its breaker is open: nothing was sent, nothing charged. A 503 the
      // SPA words as "card payments are paused for a few minutes".
      if (err instanceof ProviderCircuitOpenError) {
        this.log.warn(`purchase ${purchaseId}: not started, Stripe's circuit breaker is open`);
        throw new AppError(
          'payment_provider_paused',
          'Card payments are paused for a few minutes while the payment provider recovers. Nothing was charged.',
        );
      }
      this.log.error(`creating the PaymentIntent of purchase ${purchaseId} failed: ${(err as Error).message}`);
      throw new AppError('payment_provider_unavailable', 'Payment setup failed. Please try again in a moment.');
    }
    if (!intent.client_secret) throw new AppError('payment_provider_unavailable', 'Payment setup failed. Please try again in a moment.');
    // Recorded once Stripe has the intent: a failure above leaves nothing behind (an intent that
    // no one holds the client secret of can never be paid).
    await this.purchases.insert({
      id: purchaseId,
      userId,
      planType: plan.id,
      amountGB: plan.amountGB,
      priceUSD: amount,
      currency: stripeCurrency,
      country: req.country,
      paymentMethod,
      paymentIntentId: intent.id,
      status: 'pending',
      iccid: null,
      lpaCode: null,
      msisdn: null,
      qrCode: null,
      providerOrderId: null,
      failureReason: null,
      failureMessage: null,
      paidAt: null,
      activatedAt: null,
    });
    this.log.log(`purchase ${purchaseId}: ${plan.id} for ${req.country} at ${amount} ${currency} minor units by ${paymentMethod}, intent ${intent.id}`);
    return {
      clientSecret: intent.client_secret,
      message: PAYMENT_CREATED_MESSAGE,
      paymentIntentId: intent.id,
      purchaseId,
      planType: plan.id,
      country: req.country,
      amountCents: amount,
      amount,
      currency,
      paymentMethod,
    };
  }
}
