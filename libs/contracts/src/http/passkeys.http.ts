import { z } from 'zod';
import { defineRoute } from '../openapi/define-route';
import { messageResponseSchema } from './auth.http';
import { text } from './text.http';
import { userViewSchema } from './user.http';

const b64url = z.string().max(4096).regex(/^[A-Za-z0-9_-]*$/, 'base64url expected');

/**
 * What `navigator.credentials.create()/get()` produced, as @simplewebauthn/browser serialises it
 * (RegistrationResponseJSON / AuthenticationResponseJSON). Identity verifies the content.
 */
export const webauthnResponseSchema = z.looseObject({
  id: b64url,
  rawId: b64url,
  type: z.literal('public-key'),
  response: z.looseObject({ clientDataJSON: b64url }),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  authenticatorAttachment: z.string().max(32).optional(),
});
export type WebauthnResponse = z.infer<typeof webauthnResponseSchema>;

/** WebAuthn options for the browser (PublicKeyCredentialCreationOptionsJSON / ...RequestOptionsJSON). */
export const webauthnOptionsSchema = z.record(z.string(), z.unknown());

export const passkeySchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type Passkey = z.infer<typeof passkeySchema>;

export const passkeyNameSchema = text().trim().min(1).max(60);
export const registerPasskeyRequestSchema = z.object({ response: webauthnResponseSchema, name: passkeyNameSchema.optional() });
export type RegisterPasskeyRequest = z.infer<typeof registerPasskeyRequestSchema>;
export const passkeySignInRequestSchema = z.object({ response: webauthnResponseSchema });
export type PasskeySignInRequest = z.infer<typeof passkeySignInRequestSchema>;
export const passkeysResponseSchema = z.object({ passkeys: z.array(passkeySchema) });
export type PasskeysResponse = z.infer<typeof passkeysResponseSchema>;
export const passkeyIdParamsSchema = z.object({ id: b64url.min(1).max(1024) });

const REFUSED = 'The authenticator answer does not verify, or no ceremony was started in this session (reason `passkey_refused`).';

/** Passkeys: another way in, and a second factor in itself (docs/accounts.md). */
export const PasskeyRoutes = {
  registrationOptions: defineRoute({
    method: 'POST',
    path: '/api/user/passkeys/options',
    tag: 'Passkeys',
    auth: 'session',
    summary: 'Start adding a passkey: WebAuthn creation options (the challenge stays in the session)',
    response: webauthnOptionsSchema,
  }),
  register: defineRoute({
    method: 'POST',
    path: '/api/user/passkeys',
    tag: 'Passkeys',
    auth: 'session',
    summary: "Add the passkey the browser created for this session's challenge",
    body: registerPasskeyRequestSchema,
    response: passkeySchema,
    reasons: ['passkey_refused', 'passkey_exists'],
    errors: { 400: REFUSED, 409: 'This passkey is already registered (reason `passkey_exists`).' },
  }),
  list: defineRoute({
    method: 'GET',
    path: '/api/user/passkeys',
    tag: 'Passkeys',
    auth: 'session',
    summary: "The account's passkeys",
    response: passkeysResponseSchema,
  }),
  remove: defineRoute({
    method: 'DELETE',
    path: '/api/user/passkeys/{id}',
    reasons: ['passkey_not_found'],
    tag: 'Passkeys',
    auth: 'session',
    summary: 'Remove a passkey',
    params: passkeyIdParamsSchema,
    response: messageResponseSchema,
    errors: { 404: 'No such passkey on this account (reason `passkey_not_found`).' },
  }),
  signInOptions: defineRoute({
    method: 'POST',
    path: '/api/login/passkey/options',
    tag: 'Sign-up and sign-in',
    auth: 'public',
    summary: 'Start a passkey sign-in: WebAuthn request options (the challenge stays in the session)',
    response: webauthnOptionsSchema,
  }),
  signIn: defineRoute({
    method: 'POST',
    path: '/api/login/passkey',
    reasons: ['passkey_sign_in_refused', 'too_many_attempts'],
    tag: 'Sign-up and sign-in',
    auth: 'public',
    summary: 'Sign in with a passkey (counts as both factors; a new session id)',
    body: passkeySignInRequestSchema,
    response: userViewSchema,
    errors: { 401: 'The authenticator answer does not verify, or no sign-in ceremony was started in this session (reason `passkey_sign_in_refused`).', 429: 'Too many attempts from this address.' },
  }),
};
