import { z } from 'zod';
import { OFFERWALL_IDS } from './offerwalls';

/**
 * One offer-wall callback exactly as the gateway received it. `fullUrl` is the public URL as the
 * provider called it, byte for byte (BitLabs signs it); `sourceIp` is the client address after the
 * gateway's trusted-proxy rules.
 */
export const postbackDeliverySchema = z.object({
  provider: z.enum(OFFERWALL_IDS),
  method: z.enum(['GET', 'POST']),
  fullUrl: z.string().min(1).max(16_384),
  query: z.record(z.string(), z.union([z.string(), z.array(z.string())])),
  body: z.record(z.string(), z.unknown()).nullable(),
  headers: z.record(z.string(), z.string()),
  sourceIp: z.string().max(64),
});
export type PostbackDelivery = z.infer<typeof postbackDeliverySchema>;

/** What the gateway answers the provider, in the provider's own format. */
export const postbackAnswerSchema = z.object({
  httpStatus: z.number().int().min(200).max(599),
  body: z.string(),
});
export type PostbackAnswer = z.infer<typeof postbackAnswerSchema>;

/** How a delivery ended; every delivery is stored in webhook_transactions with one of these. */
export const POSTBACK_OUTCOMES = [
  'credited',
  'reversed',
  'duplicate',
  'ignored',
  'rejected_disabled',
  'rejected_ip',
  'rejected_signature',
  'rejected_invalid',
  'rejected_amount',
  'rejected_unknown_user',
  'rejected_unknown_transaction',
] as const;
export type PostbackOutcome = (typeof POSTBACK_OUTCOMES)[number];
