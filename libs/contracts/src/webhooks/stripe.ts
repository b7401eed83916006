/**
 * The Stripe emulator's webhook signing secret (sandboxes/src/stripe): public by
 * design, it only ever signs the local sandbox's events. The emulator signs with it, and the
 * ingestion service verifies with it, whenever STRIPE_WEBHOOK_SECRET is unset.
 */
export const STRIPE_SANDBOX_WEBHOOK_SECRET = 'whsec_sandbox_dados_gratis_emulator';

/** Stripe's webhook endpoint on the public URL (served by the ingestion service, services/webhooks). */
export const STRIPE_WEBHOOK_PATH = '/webhooks/stripe';
