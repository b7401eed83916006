import type { SampleOffer } from '@esim/webhooks/dist/postbacks/providers/offerwall-provider';

/** What every emulated wall offers (the /adwall placeholders of the spec). */
export const SAMPLE_OFFERS: readonly SampleOffer[] = [
  { id: 'sbx-game', name: 'Install game app', category: 'app', points: 120 },
  { id: 'sbx-shop', name: 'Shop online', category: 'shopping', points: 200 },
  { id: 'sbx-video', name: 'Watch video (30 second ad)', category: 'video', points: 25 },
  { id: 'sbx-survey', name: 'Survey (5 questions)', category: 'survey', points: 75 },
];

/** Emulated transaction ids carry their offer, so a reversal can resend what the credit sent. */
export const sandboxTransactionId = (offer: SampleOffer, unique: string) => `${offer.id}.${unique}`;

export const offerOfTransaction = (transactionId: string): SampleOffer | undefined =>
  SAMPLE_OFFERS.find((o) => transactionId.startsWith(`${o.id}.`));
