import { ConfigError, loadConfig } from '@esim/platform';
import { esimConfigSchema } from './config';
import { keepGoSettings } from './keepgo/keepgo-settings';

const settings = (env: Record<string, string>) => keepGoSettings(loadConfig(esimConfigSchema, env));

describe('esim configuration: KeepGo', () => {
  it('emulates KeepGo without credentials, at the sandboxes process (SANDBOXES_URL)', () => {
    expect(settings({})).toMatchObject({ sandbox: true, baseUrl: 'http://127.0.0.1:3107/keepgo/api/v2', apiKey: 'keepgo-sandbox-api-key', retries: 2, timeoutMs: 10_000 });
    expect(settings({ SANDBOXES_URL: 'http://sandboxes:3107/' }).baseUrl).toBe('http://sandboxes:3107/keepgo/api/v2');
    expect(settings({ KEEPGO_BASE_URL: 'http://sandboxes:3107/keepgo/api/v2/' }).baseUrl).toBe('http://sandboxes:3107/keepgo/api/v2');
  });

  it('goes live with both credentials, at KeepGo’s address unless told otherwise', () => {
    expect(settings({ KEEPGO_API_KEY: 'k', KEEPGO_ACCESS_TOKEN: 't', KEEPGO_BUNDLE_IDS: 'US=12, MX=34' })).toMatchObject({
      sandbox: false,
      apiKey: 'k',
      accessToken: 't',
      baseUrl: 'https://myaccount.keepgo.com/api/v2',
      pinnedBundles: new Map([
        ['US', 12],
        ['MX', 34],
      ]),
    });
  });

  it('refuses half the credentials, a malformed bundle pin, and the emulator in production unless sandboxes are allowed', () => {
    expect(() => settings({ KEEPGO_API_KEY: 'k' })).toThrow(/KEEPGO_ACCESS_TOKEN is required/);
    expect(() => settings({ KEEPGO_BUNDLE_IDS: 'US:12' })).toThrow(ConfigError);
    expect(() => settings({ NODE_ENV: 'production' })).toThrow(/KEEPGO_API_KEY is required/);
    expect(settings({ NODE_ENV: 'production', ALLOW_SANDBOX_IN_PRODUCTION: 'true' }).sandbox).toBe(true);
    expect(settings({ NODE_ENV: 'production', KEEPGO_API_KEY: 'k', KEEPGO_ACCESS_TOKEN: 't' }).sandbox).toBe(false);
  });
});
