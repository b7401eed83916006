import { z } from 'zod';
import { defineRpc } from '../rpc/rpc-definition';
import { passkeyNameSchema, passkeySchema, webauthnOptionsSchema, webauthnResponseSchema } from '../http/passkeys.http';
import { identityUserSchema } from './identity.rpc';

const challengeSchema = z.string().min(16).max(256);

/**
 * Passkeys (WebAuthn, docs/accounts.md). Identity creates the options and verifies the answers
 * (@simplewebauthn/server) and keeps the credentials; the gateway keeps each ceremony's challenge
 * in the session and hands it back with the answer. Registration, list and removal act on the
 * acting user (meta.userId).
 */
export const PasskeyRpc = {
  registrationOptions: defineRpc('identity', 'passkey-registration-options', z.object({}), z.object({ options: webauthnOptionsSchema, challenge: challengeSchema })),
  register: defineRpc(
    'identity',
    'passkey-register',
    z.object({ response: webauthnResponseSchema, expectedChallenge: challengeSchema, name: passkeyNameSchema.optional() }),
    passkeySchema,
  ),
  list: defineRpc('identity', 'passkey-list', z.object({}), z.object({ passkeys: z.array(passkeySchema) })),
  remove: defineRpc('identity', 'passkey-remove', z.object({ passkeyId: z.string().max(1024) }), z.object({})),
  authenticationOptions: defineRpc('identity', 'passkey-authentication-options', z.object({}), z.object({ options: webauthnOptionsSchema, challenge: challengeSchema })),
  /** A verified passkey answer: the account it belongs to, signed in with both factors. */
  authenticate: defineRpc(
    'identity',
    'passkey-authenticate',
    z.object({ response: webauthnResponseSchema, expectedChallenge: challengeSchema }),
    z.object({ user: identityUserSchema }),
  ),
} as const;
