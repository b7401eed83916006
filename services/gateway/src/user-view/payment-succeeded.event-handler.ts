import { EventPayload, PaymentSucceeded } from '@esim/contracts';
import { EventHandler } from '@esim/platform';
import { LiveAnnouncer } from './live-announcer';

/**
 * 'Payment received' on the user's open pages once a payment lands (once per purchase): a Pix
 * code paid from a bank app is settled by Stripe's webhook, not by the page, so /checkout learns
 * it here and moves on to /success by itself (frontend/src/pages/checkout/PixPayment.tsx).
 */
@EventHandler(PaymentSucceeded)
export class PaymentSucceededEventHandler implements EventHandler<typeof PaymentSucceeded> {
  constructor(private readonly announcer: LiveAnnouncer) {}

  async handle({ userId, purchaseId, paymentIntentId }: EventPayload<typeof PaymentSucceeded>): Promise<void> {
    await this.announcer.announce(userId, { kind: 'payment-received', purchaseId, paymentIntentId });
  }
}
