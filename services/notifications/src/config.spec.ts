import { loadConfig } from '@esim/platform';
import { notificationsConfigSchema } from './config';

describe('notifications configuration', () => {
  it('refuses the local mail outbox in production, like every other provider sandbox', () => {
    expect(() => loadConfig(notificationsConfigSchema, { NODE_ENV: 'production' })).toThrow(/SMTP_HOST is required/);
  });

  it('runs production with an SMTP server, or with the outbox when the operator allows sandboxes', () => {
    expect(loadConfig(notificationsConfigSchema, { NODE_ENV: 'production', SMTP_HOST: 'smtp.example.test' }).SMTP_HOST).toBe(
      'smtp.example.test',
    );
    expect(
      loadConfig(notificationsConfigSchema, { NODE_ENV: 'production', ALLOW_SANDBOX_IN_PRODUCTION: 'true' }).SMTP_HOST,
    ).toBeUndefined();
  });

  it('keeps the outbox for a developer machine and tests', () => {
    expect(loadConfig(notificationsConfigSchema, {}).SMTP_HOST).toBeUndefined();
    expect(loadConfig(notificationsConfigSchema, { NODE_ENV: 'test' }).SMTP_HOST).toBeUndefined();
  });
});
