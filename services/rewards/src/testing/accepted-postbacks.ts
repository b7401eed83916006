import { randomUUID } from 'node:crypto';
import type { AcceptedPostback } from '@esim/contracts';

/**
 * Accepted offer-wall postbacks as the ingestion service hands them over, for the specs: a credit
 * (by default 120 points from CPX, an offer, with a transaction id of its own) and the reversal of
 * a credit (a delivery of its own naming the credit's transaction).
 */
export const AcceptedPostbacks = {
  credit(userId: string, over: Partial<AcceptedPostback> = {}): AcceptedPostback {
    const transactionId = over.transactionId ?? `tx-${randomUUID()}`;
    return {
      deliveryId: randomUUID(),
      provider: 'cpx',
      action: 'credit',
      transactionId,
      creditTransactionId: transactionId,
      userId,
      points: 120,
      taskType: 'offer_completion',
      ...over,
    };
  },
  reversalOf(credit: AcceptedPostback, over: Partial<AcceptedPostback> = {}): AcceptedPostback {
    return { ...credit, deliveryId: randomUUID(), action: 'reverse', transactionId: `${credit.transactionId}-r`, ...over };
  },
};
