import { z } from 'zod';
import { sandboxCompleteFormSchema, sandboxReverseFormSchema, sandboxWallQuerySchema, sandboxWallUidSchema } from '../http/earning.http';
import { defineRpc } from '../rpc/rpc-definition';
import { OFFERWALL_IDS, offerwallsResponseSchema } from './offerwalls';
import { postbackAnswerSchema } from './postbacks';

/**
 * A request of the acting user (meta.userId, the signed-in user) on the emulated wall opened for
 * `uid` (the id the wall was given): the emulator refuses a uid that is not the acting user's.
 */
const sandboxVisit = z.object({ provider: z.enum(OFFERWALL_IDS), uid: sandboxWallUidSchema });

/** The ingestion service owns the walls' credentials, so it also says how each wall is embedded. */
export const WebhooksRpc = {
  /** The walls enabled for the acting user (meta.userId), with the iframe URL or script configuration of each. */
  listOfferwalls: defineRpc('webhooks', 'list-offerwalls', z.object({}), offerwallsResponseSchema),
  /** Sandbox only: the emulated wall page for the acting user (HTML). */
  sandboxWallPage: defineRpc(
    'webhooks',
    'sandbox-wall-page',
    sandboxVisit.extend(sandboxWallQuerySchema.shape),
    z.object({ html: z.string() }),
  ),
  /** Sandbox only: the emulated provider sends a signed completion postback for a sample offer. */
  sandboxCompleteOffer: defineRpc(
    'webhooks',
    'sandbox-complete-offer',
    sandboxVisit.extend(sandboxCompleteFormSchema.shape),
    z.object({ transactionId: z.string(), answer: postbackAnswerSchema }),
  ),
  /** Sandbox only: the emulated provider sends a signed reversal postback for a transaction it paid. */
  sandboxReverseOffer: defineRpc(
    'webhooks',
    'sandbox-reverse-offer',
    sandboxVisit.extend(sandboxReverseFormSchema.shape),
    z.object({ transactionId: z.string(), answer: postbackAnswerSchema }),
  ),
} as const;
