import { ConfigError, loadConfig } from '@esim/platform';
import { paymentsConfigSchema } from './config';
import { SANDBOX_SECRET_KEY, stripeSettings } from './stripe/stripe-settings';

const load = (env: Record<string, string>) => loadConfig(paymentsConfigSchema, env);
const LIVE = { STRIPE_SECRET_KEY: 'sk_live_abc', STRIPE_PUBLISHABLE_KEY: 'pk_live_abc' };

describe('payments configuration', () => {
  it('refuses the Stripe emulator in production unless sandboxes are allowed', () => {
    expect(() => load({ NODE_ENV: 'production' })).toThrow(ConfigError);
    // The loader words every missing variable the same way (libs/platform config).
    expect(() => load({ NODE_ENV: 'production' })).toThrow('STRIPE_SECRET_KEY is required');
    expect(stripeSettings(load({ NODE_ENV: 'production', ALLOW_SANDBOX_IN_PRODUCTION: 'true' })).sandbox).toBe(true);
    expect(stripeSettings(load({ NODE_ENV: 'production', ...LIVE })).sandbox).toBe(false);
  });

  it('needs the publishable key with a secret key (the webhook secret is the ingestion service’s)', () => {
    expect(() => load({ STRIPE_SECRET_KEY: 'sk_test_abc' })).toThrow('STRIPE_PUBLISHABLE_KEY is required');
    expect(load({ STRIPE_SECRET_KEY: 'sk_test_abc', STRIPE_PUBLISHABLE_KEY: 'pk_test_abc' }).STRIPE_SECRET_KEY).toBe('sk_test_abc');
    expect(() => load({ ...LIVE, STRIPE_SECRET_KEY: 'pk_live_abc' })).toThrow(/STRIPE_SECRET_KEY: must be a Stripe secret/);
  });

  it('points the SDK at api.stripe.com live, at the sandboxes process in sandbox, or where STRIPE_API_* says', () => {
    expect(stripeSettings(load(LIVE)).address).toEqual({ host: 'api.stripe.com', port: 443, protocol: 'https' });
    expect(stripeSettings(load({}))).toMatchObject({ sandbox: true, secretKey: SANDBOX_SECRET_KEY, address: { host: '127.0.0.1', port: 3107, protocol: 'http' } });
    expect(stripeSettings(load({ SANDBOXES_URL: 'http://sandboxes:3107' })).address).toEqual({ host: 'sandboxes', port: 3107, protocol: 'http' });
    expect(stripeSettings(load({ ...LIVE, SANDBOXES_URL: 'http://sandboxes:3107' })).address).toEqual({ host: 'api.stripe.com', port: 443, protocol: 'https' });
    expect(stripeSettings(load({ STRIPE_API_HOST: 'stripe-emulator.internal', STRIPE_API_PORT: '12111' })).address).toEqual({
      host: 'stripe-emulator.internal',
      port: 12111,
      protocol: 'http',
    });
  });

  it('bounds how long a confirmation waits for the eSIM', () => {
    expect(load({}).PURCHASE_CONFIRM_WAIT_MS).toBe(4000);
    expect(() => load({ PURCHASE_CONFIRM_WAIT_MS: '60000' })).toThrow(/PURCHASE_CONFIRM_WAIT_MS/);
  });
});
