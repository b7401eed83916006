import { z } from 'zod';
import { ConfigError, envBoolean, envList, loadConfig } from './load-config';
import { platformConfigSchema } from './platform-config';

describe('loadConfig', () => {
  const schema = z.object({ API_KEY: z.string(), RETRIES: z.coerce.number().int().default(3), SANDBOX: envBoolean(true), IPS: envList() });

  it('applies defaults, treats blank values as unset and coerces types', () => {
    expect(loadConfig(schema, { API_KEY: 'k', RETRIES: '  ', SANDBOX: 'false', IPS: '1.2.3.4, 5.6.7.8' })).toEqual({
      API_KEY: 'k',
      RETRIES: 3,
      SANDBOX: false,
      IPS: ['1.2.3.4', '5.6.7.8'],
    });
  });

  it('names every missing or invalid variable in one error', () => {
    const attempt = () => loadConfig(schema, { RETRIES: 'many' });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/API_KEY is required/);
    expect(attempt).toThrow(/RETRIES: /);
  });

  it('runs every service on local defaults', () => {
    const config = loadConfig(platformConfigSchema, {});
    expect(config).toMatchObject({ DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/esim_rewards', AMQP_URL: 'amqp://guest:guest@127.0.0.1:5672', REDIS_URL: 'redis://127.0.0.1:6379' });
  });
});
