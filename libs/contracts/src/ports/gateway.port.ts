import { AccountDeleted, PasswordChanged } from '../identity/identity.events';
import { defineServicePort } from './service-port';

/**
 * The edge calls the services' RPCs and answers none. It consumes events with a queue of its
 * own and a Redis inbox: a password change or an account deletion ends the user's sessions.
 */
export const GatewayPort = defineServicePort('gateway', {
  consumes: [PasswordChanged, AccountDeleted],
});
