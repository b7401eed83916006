import { loadConfig } from '@esim/platform';
import { gatewayConfigSchema } from './config';

describe('gateway configuration', () => {
  it('refuses to run in production without a session secret', () => {
    expect(() => loadConfig(gatewayConfigSchema, { NODE_ENV: 'production', ALLOW_SANDBOX_IN_PRODUCTION: 'true' })).toThrow(/SESSION_SECRET is required/);
  });

  it('runs locally on its defaults, ignoring X-Forwarded-For unless told to trust a proxy', () => {
    expect(loadConfig(gatewayConfigSchema, {})).toMatchObject({ PORT: 3000, PUBLIC_URL: 'http://localhost:3000', TRUST_PROXY: 'false' });
  });
});
