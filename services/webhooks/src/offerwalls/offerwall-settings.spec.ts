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

  // Each wall's live credentials, without an allow-list.
  const LIVE: Record<string, Record<string, string>> = {
    rapidoreach: { RAPIDOREACH_APP_ID: 'a', RAPIDOREACH_APP_KEY: 'k', RAPIDOREACH_APP_SECRET: 's' },
    cpx: { CPX_APP_ID: '7', CPX_SECURE_HASH: 'h' },
    bitlabs: { BITLABS_APP_TOKEN: 't', BITLABS_APP_SECRET: 's' },
    lootably: { LOOTABLY_PLACEMENT_ID: 'p', LOOTABLY_POSTBACK_SECRET: 's' },
    torox: { TOROX_PUB_ID: '1', TOROX_APP_ID: '2', TOROX_SECRET_KEY: 'k' },
  };

  it.each([
    ['lootably', 'LOOTABLY_ALLOWED_IPS', /Lootably wall: its signature does not cover the transaction id$/],
    ['cpx', 'CPX_ALLOWED_IPS', /CPX Research wall: its signature does not cover the amount, whether it credits or reverses$/],
    ['rapidoreach', 'RAPIDOREACH_ALLOWED_IPS', /RapidoReach wall: its signature does not cover the amount, whether it credits or reverses$/],
    ['torox', 'TOROX_ALLOWED_IPS', /Torox wall: its signature does not cover the transaction id, the amount, whether it credits or reverses$/],
  ])('refuses to run %s live without its source allow-list: its signature does not cover all that moves points', (wall, variable, why) => {
    const env = LIVE[wall];
    expect(() => settings(env)).toThrow(ConfigError);
    expect(() => settings(env)).toThrow(new RegExp(`${variable} is required for a live`));
    expect(() => settings(env)).toThrow(why);
    expect(modes(settings({ ...env, [variable]: '198.51.100.0/24' }))[wall]).toBe('live');
    // Emulated, it signs with public sandbox secrets anyway: no allow-list needed.
    expect(modes(settings({}))[wall]).toBe('sandbox');
  });

  it('runs BitLabs live without an allow-list: its signature covers the whole URL', () => {
    expect(modes(settings(LIVE.bitlabs)).bitlabs).toBe('live');
  });

  it('names every missing allow-list at once', () => {
    const all = { ...LIVE.rapidoreach, ...LIVE.cpx, ...LIVE.bitlabs, ...LIVE.lootably, ...LIVE.torox };
    let message = '';
    try {
      settings(all);
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message.match(/[A-Z]+_ALLOWED_IPS is required/g)).toEqual([
      'RAPIDOREACH_ALLOWED_IPS is required',
      'CPX_ALLOWED_IPS is required',
      'LOOTABLY_ALLOWED_IPS is required',
      'TOROX_ALLOWED_IPS is required',
    ]);
  });

  it('refuses the sandbox in production (walls without credentials are disabled) unless explicitly allowed', () => {
    const production = settings({ NODE_ENV: 'production', CPX_APP_ID: '7', CPX_SECURE_HASH: 'h', CPX_ALLOWED_IPS: '198.51.100.1', STRIPE_WEBHOOK_SECRET: 'whsec_live' });
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
