import webpush from 'web-push';
import { loadConfig } from '@esim/platform';
import { notificationsConfigSchema } from './config';

const vapid = webpush.generateVAPIDKeys();
const VAPID = { VAPID_PUBLIC_KEY: vapid.publicKey, VAPID_PRIVATE_KEY: vapid.privateKey };

describe('notifications configuration', () => {
  it('refuses the local mail outbox in production, like every other provider sandbox', () => {
    expect(() => loadConfig(notificationsConfigSchema, { NODE_ENV: 'production' })).toThrow(/SMTP_HOST is required/);
  });

  it('runs production with an SMTP server, or with the outbox when the operator allows sandboxes', () => {
    expect(loadConfig(notificationsConfigSchema, { NODE_ENV: 'production', SMTP_HOST: 'smtp.example.test', ...VAPID }).SMTP_HOST).toBe(
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

  it('signs Web Push with the configured VAPID pair, both keys or neither, and requires one in production', () => {
    expect(loadConfig(notificationsConfigSchema, VAPID).VAPID_PUBLIC_KEY).toBe(vapid.publicKey);
    expect(() => loadConfig(notificationsConfigSchema, { VAPID_PUBLIC_KEY: vapid.publicKey })).toThrow(/VAPID_PRIVATE_KEY is required/);
    expect(() => loadConfig(notificationsConfigSchema, { ...VAPID, VAPID_PRIVATE_KEY: 'not-a-key' })).toThrow(/VAPID_PRIVATE_KEY/);
    expect(() => loadConfig(notificationsConfigSchema, { NODE_ENV: 'production', SMTP_HOST: 'smtp.example.test' })).toThrow(/VAPID_PUBLIC_KEY is required/);
    expect(loadConfig(notificationsConfigSchema, {}).WEB_PUSH_ALLOWED_HOSTS).toContain('fcm.googleapis.com');
  });
});
