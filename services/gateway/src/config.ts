import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_HTTP_PORTS } from '@esim/contracts';
import { envBoolean, envInt, platformConfigSchema, sandboxesUrlSetting } from '@esim/platform';
import { rateLimitSetting } from './rate-limits/rate-limit-setting';

const DEV_SESSION_SECRET = 'dev-only-session-secret-change-me';

export const gatewayConfigSchema = platformConfigSchema
  .extend({
    PORT: envInt(DEFAULT_HTTP_PORTS.gateway).describe('Public HTTP port of the gateway (API, webhooks and the SPA); it answers neither /metrics nor /health/* (OPS_PORT).'),
    OPS_PORT: envInt(3100).describe('Internal operator port of the gateway: /health/live, /health/ready and /metrics, and nothing else (0 picks a free port). Never routed by the Ingress.'),
    WEBHOOKS_URL: z.string().url().default(`http://127.0.0.1:${DEFAULT_HTTP_PORTS.webhooks}`).describe('The webhooks ingestion service, to which provider callbacks (/webhooks/offerwalls/* and /webhooks/stripe) are streamed.'),
    SANDBOXES_URL: sandboxesUrlSetting.describe(
      'Where the provider emulators run (the sandboxes process): the siteverify emulator without CAPTCHA_SECRET, and what /sandbox/* (the sandbox card form, the sandbox offer walls) is proxied to outside production (or with ALLOW_SANDBOX_IN_PRODUCTION).',
    ),
    PUBLIC_URL: z.string().url().default(`http://localhost:${DEFAULT_HTTP_PORTS.gateway}`).describe('The URL users reach the app at; links in emails and the CSRF origin check use it, never the Host header.'),
    SESSION_SECRET: z.string().min(16).default(DEV_SESSION_SECRET).describe('Signs the session cookie. Required in production.'),
    SESSION_IDLE_MINUTES: envInt(30, 1).describe('A session unused this long ends.'),
    SESSION_ABSOLUTE_HOURS: envInt(24 * 7, 1).describe('A session ends this long after sign-in, however active.'),
    SESSION_IDLE_SECONDS: envInt(0).describe('Overrides SESSION_IDLE_MINUTES in seconds (tests).'),
    SESSION_ABSOLUTE_SECONDS: envInt(0).describe('Overrides SESSION_ABSOLUTE_HOURS in seconds (tests).'),
    TRUST_PROXY: z.string().default('false').describe("Express 'trust proxy' setting: false (use the socket address), a hop count, or a list of proxy addresses. X-Forwarded-For is ignored unless set."),
    BODY_LIMIT: z.string().default('64kb').describe('Largest JSON body accepted.'),
    HTTP_HEADERS_TIMEOUT_MS: envInt(10_000, 1000).describe("A request's headers must all arrive within this, or it is answered 408 and its connection closed (Node's server.headersTimeout)."),
    HTTP_KEEP_ALIVE_TIMEOUT_MS: envInt(65_000, 1000).describe("How long an idle keep-alive connection stays open (Node's server.keepAliveTimeout; Node's default is 5 s). Keep it above the idle timeout of the proxy in front (ingress-nginx's upstream-keepalive-timeout and cloud balancers: 60 s), so the proxy closes idle connections first and never sends a request on one this server is closing."),
    HTTP_REQUEST_TIMEOUT_MS: envInt(60_000, 1000).describe("A whole request (headers and body) must arrive within this, or it is answered 408 and its connection closed (Node's server.requestTimeout)."),
    WEBHOOK_BODY_TIMEOUT_MS: envInt(10_000, 100).describe('A provider callback (/webhooks/*) must have sent its whole body this long after its headers, or it is answered 408 request_timeout and closed. The body is held until then, so a slow sender never holds a connection to the ingestion service.'),
    WEBHOOK_REQUESTS_PER_ADDRESS: envInt(128, 1).describe('Provider callbacks (/webhooks/*) one client address may have in flight at once; more are answered 429 too_many_requests (providers retry).'),
    SPA_DIR: z.string().default(path.resolve(__dirname, '../../../frontend/dist')).describe('Built SPA served at /.'),
    SERVE_SPA: envBoolean(true).describe('Serve the built SPA from SPA_DIR.'),
    RATE_LIMIT_LOGIN_ACCOUNT: rateLimitSetting('10/900').describe('Sign-in attempts per account (email) per window, as "<attempts>/<seconds>"; a success clears the account\'s count.'),
    RATE_LIMIT_LOGIN_IP: rateLimitSetting('100/900').describe('Failed sign-in attempts per client network (an IPv4 address, or an IPv6 /64) per window.'),
    RATE_LIMIT_SIGNUP_IP: rateLimitSetting('30/3600').describe('Sign-ups (POST /api/register) per client network (an IPv4 address, or an IPv6 /64) per window.'),
    RATE_LIMIT_SIGNUP_EMAIL: rateLimitSetting('5/3600').describe('Sign-ups per email per window (also caps the mails an existing account\'s owner gets).'),
    RATE_LIMIT_VERIFY_IP: rateLimitSetting('60/900').describe('Code verifications (sign-up and email change) per client network (an IPv4 address, or an IPv6 /64) per window; each code also dies after 5 wrong tries.'),
    RATE_LIMIT_RESEND_EMAIL: rateLimitSetting('1/60').describe('Verification code resends per email per window (the product allows one a minute).'),
    RATE_LIMIT_RESEND_IP: rateLimitSetting('20/3600').describe('Verification code resends per client network (an IPv4 address, or an IPv6 /64) per window.'),
    RATE_LIMIT_FORGOT_EMAIL: rateLimitSetting('5/3600').describe('Password reset requests per email per window.'),
    RATE_LIMIT_FORGOT_IP: rateLimitSetting('20/3600').describe('Password reset requests per client network (an IPv4 address, or an IPv6 /64) per window.'),
    RATE_LIMIT_PASSWORD_CHECK_USER: rateLimitSetting('10/900').describe('Current-password checks (profile changes) per signed-in user per window.'),
    RATE_LIMIT_ICCID_USER: rateLimitSetting('20/3600').describe('ICCID lookups (top-ups through POST /api/redeem-points or /api/gift-data) per signed-in user per window; each refused one also costs the captcha mark.'),
    RATE_LIMIT_ICCID_IP: rateLimitSetting('60/3600').describe('ICCID lookups (top-ups) per client network (an IPv4 address, or an IPv6 /64) per window, whichever accounts make them.'),
    RATE_LIMIT_PAYMENT_USER: rateLimitSetting('20/600').describe('Card payments started (POST /api/create-esim-payment, each a Stripe PaymentIntent) per signed-in user per window: Stripe allows an account about 100 writes a second, so unbounded creation by a few sessions would fail every buyer\'s payment.'),
    RATE_LIMIT_PAYMENT_IP: rateLimitSetting('60/600').describe('Card payments started per client network (an IPv4 address, or an IPv6 /64) per window, whichever accounts start them.'),
    RATE_LIMIT_DEVICES_IP: rateLimitSetting('60/600').describe('Phone compatibility questions (GET /api/devices/compatibility, public) per client network (an IPv4 address, or an IPv6 /64) per window.'),
    RATE_LIMIT_UNSUBSCRIBE_IP: rateLimitSetting('30/600').describe('One-click unsubscribes from promotional email (POST /api/mail/unsubscribe, public) per client network (an IPv4 address, or an IPv6 /64) per window.'),
    CAPTCHA_SECRET: z.string().optional().describe('Cloudflare Turnstile secret key. Unset: captchas are checked by the siteverify emulator at SANDBOXES_URL/captcha/siteverify (refused in production unless ALLOW_SANDBOX_IN_PRODUCTION).'),
    CAPTCHA_SITE_KEY: z.string().optional().describe("Turnstile site key the widget uses; required with CAPTCHA_SECRET. Sandbox default: Turnstile's always-passing test key."),
    CAPTCHA_VERIFY_URL: z.string().url().optional().describe('siteverify endpoint (default: https://challenges.cloudflare.com/turnstile/v0/siteverify; in sandbox mode, the emulator at SANDBOXES_URL).'),
    CAPTCHA_TIMEOUT_MS: envInt(5000, 100).describe('How long to wait for siteverify.'),
    USER_VIEW_MAX_AGE_SECONDS: envInt(3600, 1).describe('The live user view (the read model GET /api/user answers from) is rebuilt from the owning services at least this often, whatever events arrive.'),
    LIVE_HEARTBEAT_MS: envInt(15000, 50).describe('How often each live stream (GET /api/events) gets a keep-alive comment and its session is checked (a stream of an expired session ends then).'),
    LIVE_STREAMS_PER_USER: envInt(16, 1).describe('Live streams one user may hold open on one gateway replica (one per open page).'),
    LIVE_STREAMS_PER_ADDRESS: envInt(64, 1).describe('Live streams one client network (an IPv4 address, or an IPv6 /64) may hold open on one gateway replica, whichever accounts hold them.'),
    LIVE_STREAMS_PER_GATEWAY: envInt(5000, 1).describe('Live streams one gateway replica holds at most (each is an open socket and a file descriptor); more are refused until some close.'),
    REDEEM_WAIT_MS: envInt(8000, 0).describe('How long POST /api/redeem-points and /api/gift-data wait for the eSIM provider before answering status processing (the outcome then reaches the dashboard, history and My eSIMs).'),
  })
  .refine((c) => c.NODE_ENV !== 'production' || c.CAPTCHA_SECRET !== undefined || c.ALLOW_SANDBOX_IN_PRODUCTION, {
    path: ['CAPTCHA_SECRET'],
    message: 'CAPTCHA_SECRET is required in production (or ALLOW_SANDBOX_IN_PRODUCTION for a demo)',
  })
  .refine((c) => c.CAPTCHA_SECRET === undefined || c.CAPTCHA_SITE_KEY !== undefined, {
    path: ['CAPTCHA_SITE_KEY'],
    message: 'CAPTCHA_SITE_KEY is required with CAPTCHA_SECRET',
  })
  .refine((c) => c.NODE_ENV !== 'production' || c.SESSION_SECRET !== DEV_SESSION_SECRET, {
    path: ['SESSION_SECRET'],
    message: 'SESSION_SECRET is required in production',
  });
export type GatewayConfig = z.infer<typeof gatewayConfigSchema>;

export const sessionIdleMs = (c: GatewayConfig) => (c.SESSION_IDLE_SECONDS || c.SESSION_IDLE_MINUTES * 60) * 1000;
export const sessionAbsoluteMs = (c: GatewayConfig) => (c.SESSION_ABSOLUTE_SECONDS || c.SESSION_ABSOLUTE_HOURS * 3600) * 1000;
export const cookieSecure = (c: GatewayConfig) => c.PUBLIC_URL.startsWith('https://');
