import { z } from 'zod';
import { localeSchema } from '../http/auth.http';
import { defineRpc } from '../rpc/rpc-definition';

/** One person who asked for promotional email, and the signed token of their one-click unsubscribe link. */
export const marketingRecipientSchema = z.object({
  userId: z.string().uuid(),
  email: z.string(),
  name: z.string(),
  locale: localeSchema,
  unsubscribeToken: z.string(),
});
export type MarketingRecipient = z.infer<typeof marketingRecipientSchema>;

/**
 * Promotional email (docs/accounts.md, "What each switch governs"): identity alone knows who asked
 * for it (`marketingEmails` on, a verified account that is not deleted) and signs the unsubscribe
 * links, so a link turns the switch off without a session and cannot be made for another account.
 */
export const MarketingRpc = {
  /** Accounts with `marketingEmails` on, in id order after `after` (a page of `limit`). */
  listRecipients: defineRpc(
    'identity',
    'list-marketing-recipients',
    z.object({ after: z.string().uuid().nullable(), limit: z.number().int().min(1).max(500) }),
    z.object({ recipients: z.array(marketingRecipientSchema) }),
  ),
  /**
   * Turns `marketingEmails` off for the account the token names (one-click unsubscribe, RFC 8058).
   * 400 `invalid_unsubscribe_link` for a token identity did not sign; a deleted account, or one
   * already unsubscribed, is answered as done.
   */
  unsubscribe: defineRpc(
    'identity',
    'unsubscribe-marketing',
    z.object({ token: z.string().max(200) }),
    z.object({ unsubscribed: z.literal(true) }),
  ),
} as const;
