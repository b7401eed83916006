import type { RequestHandler } from 'express';
import helmet from 'helmet';

/** Third parties the pages embed: card payments, the captcha widget, and the offer walls. */
const STRIPE = ['https://js.stripe.com', 'https://hooks.stripe.com'];
const CAPTCHA = ['https://challenges.cloudflare.com', 'https://js.hcaptcha.com', 'https://*.hcaptcha.com'];
const OFFER_WALLS = [
  'https://www.rapidoreach.com',
  'https://offers.cpx-research.com',
  'https://cdn.cpx-research.com',
  'https://web.bitlabs.ai',
  'https://wall.lootably.com',
  'https://www.offertoro.com',
  'https://torox.io',
];

export function securityHeaders(): RequestHandler {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'none'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        scriptSrc: ["'self'", ...STRIPE, ...CAPTCHA, 'https://cdn.cpx-research.com'],
        styleSrc: ["'self'", "'unsafe-inline'", ...CAPTCHA],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
        fontSrc: ["'self'", 'data:'],
        // The CPX survey widget fetches its surveys from its own API.
        connectSrc: ["'self'", 'https://api.stripe.com', ...CAPTCHA, 'https://live-api.cpx-research.com'],
        frameSrc: ["'self'", ...STRIPE, ...CAPTCHA, ...OFFER_WALLS],
      },
    },
    strictTransportSecurity: { maxAge: 63072000, includeSubDomains: true },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
  });
}
