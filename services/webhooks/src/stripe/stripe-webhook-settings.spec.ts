import { STRIPE_SANDBOX_WEBHOOK_SECRET } from '@esim/contracts';
import { ConfigError, loadConfig } from '@esim/platform';
import { webhooksConfigSchema } from '../config';
import { StripeWebhookSettings } from './stripe-webhook-settings';

const settings = (env: Record<string, string>) => StripeWebhookSettings.fromConfig(loadConfig(webhooksConfigSchema, env));

describe('how Stripe deliveries are verified', () => {
  it('uses the Stripe emulator’s secret without STRIPE_WEBHOOK_SECRET, the endpoint’s own with it', () => {
    expect(settings({})).toMatchObject({ secret: STRIPE_SANDBOX_WEBHOOK_SECRET, toleranceSeconds: 300, sandbox: true });
    expect(settings({ STRIPE_WEBHOOK_SECRET: 'whsec_live', STRIPE_WEBHOOK_TOLERANCE_SECONDS: '60' })).toMatchObject({
      secret: 'whsec_live',
      toleranceSeconds: 60,
      sandbox: false,
    });
    expect(() => settings({ STRIPE_WEBHOOK_SECRET: 'sk_live_wrong' })).toThrow(/STRIPE_WEBHOOK_SECRET: must be a Stripe webhook signing secret/);
  });

  it('refuses the sandbox secret in production unless sandboxes are allowed', () => {
    expect(() => settings({ NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(() => settings({ NODE_ENV: 'production' })).toThrow('STRIPE_WEBHOOK_SECRET is required');
    expect(settings({ NODE_ENV: 'production', ALLOW_SANDBOX_IN_PRODUCTION: 'true' }).sandbox).toBe(true);
    expect(settings({ NODE_ENV: 'production', STRIPE_WEBHOOK_SECRET: 'whsec_live' }).sandbox).toBe(false);
  });
});
