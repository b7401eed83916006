import { z } from 'zod';
import { pushPublicKeySchema, pushSubscriptionSchema, pushUnsubscribeSchema } from '../notifications/push.rpc';
import { defineRoute } from '../openapi/define-route';

/** Web Push for the signed-in user's browsers (docs/wallet.md, "Web Push"). */
export const PushRoutes = {
  publicKey: defineRoute({
    method: 'GET',
    path: '/api/push/public-key',
    tag: 'Account',
    auth: 'session',
    summary: "The VAPID public key, the browser's applicationServerKey for pushManager.subscribe",
    response: pushPublicKeySchema,
  }),
  subscribe: defineRoute({
    method: 'POST',
    path: '/api/push/subscriptions',
    reasons: ['push_endpoint_refused'],
    tag: 'Account',
    auth: 'session',
    summary: "Save this browser's push subscription for the signed-in user (PushSubscription.toJSON())",
    body: pushSubscriptionSchema,
    response: z.object({ saved: z.literal(true) }),
    errors: { 400: 'The endpoint is not a push service this deployment sends to (`reason: push_endpoint_refused`).' },
  }),
  unsubscribe: defineRoute({
    method: 'DELETE',
    path: '/api/push/subscriptions',
    tag: 'Account',
    auth: 'session',
    summary: "Forget this browser's push subscription (the signed-in user's only)",
    body: pushUnsubscribeSchema,
    response: z.object({ removed: z.boolean() }),
  }),
};
