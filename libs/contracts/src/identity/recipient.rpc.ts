import { z } from 'zod';
import { localeSchema } from '../http/auth.http';
import { userSettingsSchema } from '../http/user.http';
import { defineRpc } from '../rpc/rpc-definition';

/**
 * Service-to-service lookups of an account by id (never the acting user's self-service): who an
 * email about a user (`recipientId`) goes to, in which language. 404 `user_not_found` for an unknown or deleted
 * account. Callers: notifications (emails caused by other services' events, which carry only the
 * user id) and the gateway's admin gifting (behind AdminGuard) to refuse an unknown user. `settings`
 * are the person's switches, so notifications sends only what they allow (docs/wallet.md, "Alerts").
 */
export const RecipientRpc = {
  getRecipient: defineRpc(
    'identity',
    'get-recipient',
    z.object({ recipientId: z.string().uuid() }),
    z.object({ userId: z.string().uuid(), email: z.string(), name: z.string(), locale: localeSchema, settings: userSettingsSchema }),
  ),
} as const;
