import path from 'node:path';
import { z } from 'zod';
import { envBoolean, envInt, platformConfigSchema } from '@esim/platform';

const DEV_SESSION_SECRET = 'dev-only-session-secret-change-me';

export const gatewayConfigSchema = platformConfigSchema
  .extend({
    PORT: envInt(3000).describe('HTTP port of the gateway (API, webhooks and the SPA).'),
    PUBLIC_URL: z.string().url().default('http://localhost:3000').describe('The URL users reach the app at; links in emails and the CSRF origin check use it, never the Host header.'),
    SESSION_SECRET: z.string().min(16).default(DEV_SESSION_SECRET).describe('Signs the session cookie. Required in production.'),
    SESSION_IDLE_MINUTES: envInt(30, 1).describe('A session unused this long ends.'),
    SESSION_ABSOLUTE_HOURS: envInt(24 * 7, 1).describe('A session ends this long after sign-in, however active.'),
    SESSION_IDLE_SECONDS: envInt(0).describe('Overrides SESSION_IDLE_MINUTES in seconds (tests).'),
    SESSION_ABSOLUTE_SECONDS: envInt(0).describe('Overrides SESSION_ABSOLUTE_HOURS in seconds (tests).'),
    TRUST_PROXY: z.string().default('false').describe("Express 'trust proxy' setting: false (use the socket address), a hop count, or a list of proxy addresses. X-Forwarded-For is ignored unless set."),
    BODY_LIMIT: z.string().default('64kb').describe('Largest JSON body accepted.'),
    SPA_DIR: z.string().default(path.resolve(__dirname, '../../../frontend/dist')).describe('Built SPA served at /.'),
    SERVE_SPA: envBoolean(true).describe('Serve the built SPA from SPA_DIR.'),
  })
  .refine((c) => c.NODE_ENV !== 'production' || c.SESSION_SECRET !== DEV_SESSION_SECRET, {
    path: ['SESSION_SECRET'],
    message: 'SESSION_SECRET is required in production',
  });
export type GatewayConfig = z.infer<typeof gatewayConfigSchema>;

export const sessionIdleMs = (c: GatewayConfig) => (c.SESSION_IDLE_SECONDS || c.SESSION_IDLE_MINUTES * 60) * 1000;
export const sessionAbsoluteMs = (c: GatewayConfig) => (c.SESSION_ABSOLUTE_SECONDS || c.SESSION_ABSOLUTE_HOURS * 3600) * 1000;
export const cookieSecure = (c: GatewayConfig) => c.PUBLIC_URL.startsWith('https://');
