import { z } from 'zod';
import { defineRpc } from '../rpc/rpc-definition';

/** Base64url of `bytes` bytes, without padding (`=` tolerated), as PushSubscription.toJSON() gives the keys. */
const base64url = (what: string, bytes: number) =>
  z
    .string({ error: `${what} is required` })
    .regex(new RegExp(`^[A-Za-z0-9_-]{${Math.ceil((bytes * 4) / 3)}}=*$`), `${what} must be ${bytes} bytes in base64url`);

/**
 * A browser's Web Push subscription, as `PushSubscription.toJSON()` gives it (the SPA's service
 * worker, frontend/src/pwa): the push service's endpoint (https) and the keys the message is
 * encrypted to (RFC 8291).
 */
export const pushSubscriptionSchema = z.object({
  endpoint: z
    .string({ error: 'endpoint is required' })
    .max(2000, 'endpoint must be at most 2000 characters')
    .url('endpoint must be a URL')
    .refine((u) => u.startsWith('https://'), 'endpoint must be https'),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({ p256dh: base64url('keys.p256dh', 65), auth: base64url('keys.auth', 16) }),
});
export type PushSubscriptionRequest = z.infer<typeof pushSubscriptionSchema>;

export const pushUnsubscribeSchema = z.object({ endpoint: z.string({ error: 'endpoint is required' }).max(2000, 'endpoint must be at most 2000 characters') });

export const pushPublicKeySchema = z.object({
  /** The VAPID public key (base64url, uncompressed P-256 point): `applicationServerKey` of pushManager.subscribe. */
  publicKey: z.string(),
});

/**
 * The acting user's Web Push subscriptions (docs/wallet.md, "Web Push"); the user travels in meta.
 * A subscription belongs to one user: saving an endpoint another account had moves it (one browser,
 * one signed-in person).
 */
export const PushRpc = {
  getPublicKey: defineRpc('notifications', 'get-push-public-key', z.object({}), pushPublicKeySchema),
  subscribe: defineRpc('notifications', 'save-push-subscription', pushSubscriptionSchema, z.object({ saved: z.literal(true) })),
  unsubscribe: defineRpc('notifications', 'delete-push-subscription', pushUnsubscribeSchema, z.object({ removed: z.boolean() })),
} as const;
