import { AccountDeleted, UserRegistered } from '../identity/identity.events';
import { StripeEventRefused } from '../payments/payments.events';
import { OfferwallPostbackRefused } from '../rewards/rewards.events';
import { OfferwallPostbacksAccepted, StripeEventAccepted } from '../webhooks/webhooks.events';
import { WebhooksRpc } from '../webhooks/webhooks.rpc';
import { defineServicePort } from './service-port';

/**
 * Where providers call us: it accepts offer-wall postbacks and hands them to rewards, and records
 * what rewards refused; it verifies Stripe's webhook events and hands them to payments, and records
 * what payments refused. It keeps its own list of registered users (so it can answer an unknown
 * user alone) and erases a deleted user's raw payloads.
 */
export const WebhooksPort = defineServicePort('webhooks', {
  answers: Object.values(WebhooksRpc),
  publishes: [OfferwallPostbacksAccepted, StripeEventAccepted],
  consumes: [UserRegistered, AccountDeleted, OfferwallPostbackRefused, StripeEventRefused],
});
