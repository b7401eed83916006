import { ConfigError, loadConfig } from '@esim/platform';
import { webhooksConfigSchema } from '../config';
import { ipAllowed, OfferwallSettings } from './offerwall-settings';

const settings = (env: Record<string, string>) => OfferwallSettings.fromConfig(loadConfig(webhooksConfigSchema, env));
const modes = (s: OfferwallSettings) => Object.fromEntries(s.enabled().map((w) => [w.provider.id, w.sandbox ? 'sandbox' : 'live']));

describe('which offer walls run, and how', () => {
  it('emulates every wall without credentials in development', () => {
    expect(modes(settings({}))).toEqual({
      rapidoreach: 'sandbox',
      cpx: 'sandbox',
      bitlabs: 'sandbox',
      lootably: 'sandbox',
      torox: 'sandbox',
    });
  });

  it('runs a wall live once all its credentials are set', () => {
    const s = settings({ BITLABS_APP_TOKEN: 'token', BITLABS_APP_SECRET: 'secret' });
    expect(modes(s).bitlabs).toBe('live');
    expect(s.get('bitlabs')?.credentials).toEqual({ appId: 'token', secret: 'secret' });
  });

  it('refuses to start with part of a wall’s credentials, naming what is missing', () => {
    expect(() => settings({ TOROX_PUB_ID: '1', TOROX_APP_ID: '2' })).toThrow(ConfigError);
    expect(() => settings({ TOROX_PUB_ID: '1', TOROX_APP_ID: '2' })).toThrow(/TOROX_SECRET_KEY is required/);
  });

  it('refuses to run Torox live without its source allow-list: its signature covers neither amount nor conversion id', () => {
    const torox = { TOROX_PUB_ID: '1', TOROX_APP_ID: '2', TOROX_SECRET_KEY: 'k' };
    expect(() => settings(torox)).toThrow(ConfigError);
    expect(() => settings(torox)).toThrow(/TOROX_ALLOWED_IPS is required for a live Torox wall/);
    expect(modes(settings({ ...torox, TOROX_ALLOWED_IPS: '198.51.100.0/24' })).torox).toBe('live');
    // Emulated, it signs with public sandbox secrets anyway: no allow-list needed.
    expect(modes(settings({})).torox).toBe('sandbox');
  });

  it('refuses the sandbox in production (walls without credentials are disabled) unless explicitly allowed', () => {
    const production = settings({ NODE_ENV: 'production', CPX_APP_ID: '7', CPX_SECURE_HASH: 'h', STRIPE_WEBHOOK_SECRET: 'whsec_live' });
    expect(modes(production)).toEqual({ cpx: 'live' });
    expect(production.disabled.map((d) => d.id)).toEqual(['rapidoreach', 'bitlabs', 'lootably', 'torox']);
    expect(Object.keys(modes(settings({ NODE_ENV: 'production', ALLOW_SANDBOX_IN_PRODUCTION: 'true' })))).toHaveLength(5);
    expect(modes(settings({ OFFERWALLS_SANDBOX: 'false' }))).toEqual({});
  });

  it('checks source addresses against the allow-list (addresses and CIDR ranges, IPv4-mapped IPv6 too)', () => {
    const wall = settings({
      LOOTABLY_PLACEMENT_ID: 'p',
      LOOTABLY_POSTBACK_SECRET: 's',
      LOOTABLY_ALLOWED_IPS: '203.0.113.5, 198.51.100.0/24',
    }).get('lootably')!;
    expect(['203.0.113.5', '198.51.100.77', '::ffff:203.0.113.5'].map((ip) => ipAllowed(wall, ip))).toEqual([true, true, true]);
    expect(['203.0.113.6', '10.0.0.1', 'not-an-ip', ''].map((ip) => ipAllowed(wall, ip))).toEqual([false, false, false, false]);
    expect(() => settings({ LOOTABLY_PLACEMENT_ID: 'p', LOOTABLY_POSTBACK_SECRET: 's', LOOTABLY_ALLOWED_IPS: 'example.com' })).toThrow(
      /LOOTABLY_ALLOWED_IPS/,
    );
  });
});
