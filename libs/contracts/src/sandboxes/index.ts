/**
 * The provider emulators' process (sandboxes/, not part of production): where the services reach
 * a provider that has no credentials, and the public test credentials each emulator accepts. The
 * services and the emulators both read them here, so they cannot drift apart.
 */

/** The sandboxes process's default HTTP port (npm start moves it by PORT_OFFSET, like the services'). */
export const SANDBOXES_DEFAULT_PORT = 3107;
/** Where a service finds the emulators when SANDBOXES_URL is not set. */
export const SANDBOXES_DEFAULT_URL = `http://127.0.0.1:${SANDBOXES_DEFAULT_PORT}`;

/**
 * Browser-facing addresses of the emulators (the sandbox card form's Stripe calls, the sandbox offer
 * walls): served by the sandboxes process under this prefix, and proxied to it by the gateway from
 * PUBLIC_URL. Nothing else of the emulators is under it, so nothing else reaches the public edge.
 */
export const SANDBOX_BROWSER_PREFIX = '/sandbox';

/**
 * Set by the gateway on what it proxies under SANDBOX_BROWSER_PREFIX: the signed-in user's id, or
 * nothing (a header of this name from the client is dropped). The sandbox walls, like the old
 * in-gateway walls, open only for the user their uid belongs to.
 */
export const SANDBOX_SIGNED_IN_USER_HEADER = 'x-sandbox-signed-in-user';

/** KeepGo's reseller API v2, emulated (the esim service's KEEPGO_BASE_URL in sandbox mode). */
export const SANDBOX_KEEPGO_PATH = '/keepgo';
export const SANDBOX_KEEPGO_API_PATH = `${SANDBOX_KEEPGO_PATH}/api/v2`;

/** Turnstile's siteverify, emulated (the gateway's CAPTCHA_VERIFY_URL in sandbox mode). */
export const SANDBOX_CAPTCHA_SITEVERIFY_PATH = '/captcha/siteverify';
/** Turnstile's documented test keys: this site key always passes, with this secret. */
export const CAPTCHA_SANDBOX_SITE_KEY = '1x00000000000000000000AA';
export const CAPTCHA_SANDBOX_SECRET = '1x0000000000000000000000000000000AA';

/** The Stripe emulator's own keys: public by design, they only ever open the local sandbox. */
export const STRIPE_SANDBOX_SECRET_KEY = 'sk_test_sandbox_dados_gratis_emulator';
export const STRIPE_SANDBOX_PUBLISHABLE_KEY = 'pk_test_sandbox_dados_gratis_emulator';
/** The Stripe API version the code was written against (payments' SDK, the emulator's events). */
export const STRIPE_API_VERSION = '2025-10-29.clover' as const;
