import { z } from 'zod';
import { defineRoute } from '../openapi/define-route';
import { OFFERWALL_IDS } from '../webhooks/offerwalls';
import { userViewSchema } from './user.http';

/**
 * The live stream of the signed-in user (`GET /api/events`, server-sent events; docs/live-view.md).
 * Every message is one SSE event whose `data` is JSON:
 * - `user`: the user as `GET /api/user` answers it, and what just happened (for a notice), or null;
 * - `end`: the session ended (signed out here or elsewhere, expired): the stream closes and the
 *   page should not reconnect.
 * Comments (`: ping`) keep the connection open through proxies.
 */
export const LIVE_EVENT_TYPES = ['user', 'end'] as const;
export type LiveEventType = (typeof LIVE_EVENT_TYPES)[number];

/** What happened, for the notice the page shows; the view itself carries the new state. */
export const liveHappeningSchema = z.discriminatedUnion('kind', [
  /** An offer wall credited points (1 point = 1 MB): '+250 MB from CPX Research'. */
  z.object({ kind: z.literal('points-credited'), points: z.number().int().positive(), provider: z.enum(OFFERWALL_IDS) }),
  /** An offer wall took a credit back. */
  z.object({ kind: z.literal('points-reversed'), points: z.number().int().positive(), provider: z.enum(OFFERWALL_IDS) }),
  /** A new eSIM is ready to install (redeemed, gifted or bought): 'Your eSIM is ready'. */
  z.object({ kind: z.literal('esim-ready'), iccid: z.string() }),
  /** Data was added to an eSIM the user already has. */
  z.object({ kind: z.literal('esim-topped-up'), iccid: z.string(), amountGB: z.number().int().positive() }),
  /** A purchase's payment landed (a card, or a Pix code paid from a bank app): its eSIM is on its way. */
  z.object({ kind: z.literal('payment-received'), purchaseId: z.string().uuid(), paymentIntentId: z.string() }),
  /**
   * An automatic top-up of one of the user's lines did not run (docs/wallet.md, "Telling the
   * user"): not enough spendable points, or the rule's monthly cap reached. `last4`: the line's.
   */
  z.object({ kind: z.literal('auto-topup-refused'), last4: z.string().regex(/^\d{4}$/), reason: z.enum(['no_points', 'monthly_cap']) }),
  /** An admin gifted data the user can claim. */
  z.object({ kind: z.literal('gift-granted'), amountGB: z.number().int().positive() }),
]);
export type LiveHappening = z.infer<typeof liveHappeningSchema>;

export const liveUserEventSchema = z.object({ user: userViewSchema, happened: liveHappeningSchema.nullable() });
export type LiveUserEvent = z.infer<typeof liveUserEventSchema>;

export const LIVE_END_REASONS = ['signed_out', 'expired'] as const;
export const liveEndEventSchema = z.object({ reason: z.enum(LIVE_END_REASONS) });
export type LiveEndEvent = z.infer<typeof liveEndEventSchema>;

export const LiveRoutes = {
  events: defineRoute({
    method: 'GET',
    path: '/api/events',
    reasons: ['csrf_origin', 'too_many_streams', 'too_many_streams_from_address', 'too_many_streams_on_server'],
    tag: 'Account',
    auth: 'session',
    summary: "The signed-in user's live stream (server-sent events)",
    description:
      'One stream per open page. The first `user` event is the current view; each later one follows a change (points, eSIMs, gifts, profile), with what happened. ' +
      'An `end` event closes the stream when the session ends (sign-out in any tab, expiry).',
    response: z.string().describe('text/event-stream: `event: user` (data: { user, happened }), `event: end` (data: { reason }), `: ping` comments'),
    responseType: 'text/event-stream',
    errors: { 403: 'The page asking is on another origin.', 429: 'Too many open streams for this user, from this client network, or on this gateway.' },
  }),
};
