import { z } from 'zod';
import { defineRpc } from '../rpc/rpc-definition';
import { OFFERWALL_IDS, offerwallsResponseSchema } from './offerwalls';
import { postbackAnswerSchema } from './postbacks';

const userRequest = z.object({ userId: z.string().uuid() });
/** The signed-in user (`userId`) acting on the emulated wall opened for `uid` (the id the wall was given). */
const sandboxOffer = z.object({ provider: z.enum(OFFERWALL_IDS), userId: z.string().uuid(), uid: z.string().min(1).max(300) });

/** The ingestion service owns the walls' credentials, so it also says how each wall is embedded. */
export const WebhooksRpc = {
  /** The walls enabled for this user, with the iframe URL or script configuration of each. */
  listOfferwalls: defineRpc('webhooks', 'list-offerwalls', userRequest, offerwallsResponseSchema),
  /** Sandbox only: the emulated wall page for the signed-in user (HTML). */
  sandboxWallPage: defineRpc(
    'webhooks',
    'sandbox-wall-page',
    sandboxOffer.extend({ notice: z.string().max(40).optional() }),
    z.object({ html: z.string() }),
  ),
  /** Sandbox only: the emulated provider sends a signed completion postback for a sample offer. */
  sandboxCompleteOffer: defineRpc(
    'webhooks',
    'sandbox-complete-offer',
    sandboxOffer.extend({ offerId: z.string().max(40) }),
    z.object({ transactionId: z.string(), answer: postbackAnswerSchema }),
  ),
  /** Sandbox only: the emulated provider sends a signed reversal postback for a transaction it paid. */
  sandboxReverseOffer: defineRpc(
    'webhooks',
    'sandbox-reverse-offer',
    sandboxOffer.extend({ transactionId: z.string().max(128) }),
    z.object({ transactionId: z.string(), answer: postbackAnswerSchema }),
  ),
} as const;
