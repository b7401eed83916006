import { z } from 'zod';
import { defineRoute } from '../openapi/define-route';
import { OFFERWALL_IDS } from '../webhooks/offerwalls';
import { POSTBACK_OUTCOMES } from '../webhooks/postbacks';

const postbackParams = z.object({ provider: z.enum(OFFERWALL_IDS) });
const postbackAck = z.string().describe("The provider's own acknowledgement (`1`, `OK`, …): an accepted delivery, a replay included");
const refusal = (outcomes: readonly (typeof POSTBACK_OUTCOMES)[number][], description: string) => ({
  description,
  contentType: 'text/plain',
  schema: z.enum(outcomes).describe('The outcome'),
});
const POSTBACK_ANSWERS = {
  400: refusal(['rejected_invalid', 'rejected_amount'], 'Missing or malformed parameters, or a reward above POSTBACK_MAX_POINTS.'),
  403: refusal(['rejected_ip', 'rejected_signature'], 'Wrong signature, or a source address outside the allowed list.'),
  404: refusal(
    ['rejected_disabled', 'rejected_unknown_user', 'rejected_unknown_transaction'],
    'The wall is not enabled, the user is unknown, or a reversal names a credit not (yet) applied: the provider retries.',
  ),
  408: {
    description: 'The body did not arrive within WEBHOOK_BODY_TIMEOUT_MS of the headers: the connection is closed, nothing is recorded.',
    contentType: 'text/plain',
    schema: z.literal('request_timeout'),
  },
  413: { description: 'The body is larger than BODY_LIMIT.', contentType: 'text/plain', schema: z.literal('payload_too_large') },
  429: {
    description: 'The address already has WEBHOOK_REQUESTS_PER_ADDRESS callbacks in flight: nothing is recorded, the provider retries.',
    contentType: 'text/plain',
    schema: z.literal('too_many_requests'),
  },
  503: { description: 'The ingestion service is unreachable from the gateway: the provider retries.', contentType: 'text/plain', schema: z.literal('unavailable') },
} as const;
const POSTBACK_DESCRIPTION =
  "Each wall's own parameters (query string, or a form / JSON body), signed the wall's way; the full URL " +
  'is checked as received (BitLabs signs it). The delivery is recorded once and handed to rewards, which credits ' +
  'or reverses the points exactly once (docs/earning.md).';

/** Stripe's answer to its own deliveries. */
export const stripeWebhookAnswerSchema = z.object({ received: z.literal(true), duplicate: z.literal(true).optional() });

/** Provider callbacks on the public URL: authenticated by their signatures, answered in the provider's format. */
export const WebhookRoutes = {
  postbackGet: defineRoute({
    method: 'GET',
    path: '/webhooks/offerwalls/{provider}',
    tag: 'Provider callbacks',
    auth: 'provider',
    summary: 'An offer-wall postback (credit or reversal) sent as a GET',
    description: POSTBACK_DESCRIPTION,
    params: postbackParams,
    response: postbackAck,
    responseType: 'text/plain',
    answers: POSTBACK_ANSWERS,
  }),
  postbackPost: defineRoute({
    method: 'POST',
    path: '/webhooks/offerwalls/{provider}',
    tag: 'Provider callbacks',
    auth: 'provider',
    summary: 'An offer-wall postback (credit or reversal) sent as a POST',
    description: POSTBACK_DESCRIPTION,
    params: postbackParams,
    body: z.record(z.string(), z.unknown()),
    bodyTypes: ['application/x-www-form-urlencoded', 'application/json'],
    response: postbackAck,
    responseType: 'text/plain',
    answers: POSTBACK_ANSWERS,
  }),
  stripe: defineRoute({
    method: 'POST',
    path: '/webhooks/stripe',
    tag: 'Provider callbacks',
    auth: 'provider',
    summary: "Stripe's webhook deliveries (payment_intent.*), verified by the Stripe-Signature header",
    description:
      'The signature is checked on the exact bytes received. A verified event is recorded once per event id and ' +
      'handed to payments, which applies it exactly once (docs/payments.md, "Webhook"); a replayed event id answers ' +
      '`duplicate`.',
    headers: z.object({ 'Stripe-Signature': z.string() }),
    body: z.object({ id: z.string(), type: z.string(), data: z.object({ object: z.record(z.string(), z.unknown()) }) }).describe('A Stripe event, signed as received'),
    response: stripeWebhookAnswerSchema,
    answers: {
      400: {
        description: 'The signature does not verify (or is too old).',
        schema: z.object({ error: z.object({ message: z.string() }) }),
      },
      408: POSTBACK_ANSWERS[408],
      413: { description: 'The body is larger than BODY_LIMIT.', contentType: 'text/plain', schema: z.literal('payload_too_large') },
      429: POSTBACK_ANSWERS[429],
      503: POSTBACK_ANSWERS[503],
    },
  }),
};
