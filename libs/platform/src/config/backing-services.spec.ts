import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { amqpSocketOptions, createRedisClient, postgresTls } from './backing-services';
import { loadConfig } from './load-config';
import { platformConfigSchema } from './platform-config';

const ca = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
const caFile = path.join(mkdtempSync(path.join(tmpdir(), 'ca-')), 'ca.pem');
writeFileSync(caFile, ca);
const config = (env: Record<string, string>) => loadConfig(platformConfigSchema, env);

/** TLS to the backing services is verified or off, never encrypted-but-unverified; Redis can follow Sentinels. */
describe('the backing services\' connection settings', () => {
  it('give Postgres no TLS by default, and a verified TLS with the CA bundle and hostname when DB_TLS is on', () => {
    expect(postgresTls(config({}))).toBeUndefined();
    expect(postgresTls(config({ DB_TLS: 'true', DB_TLS_CA_FILE: caFile, DB_TLS_SERVERNAME: 'pg.internal' }))).toEqual({ rejectUnauthorized: true, ca, servername: 'pg.internal' });
    expect(postgresTls(config({ DB_TLS: 'true' }))).toEqual({ rejectUnauthorized: true });
  });

  it('give RabbitMQ verified TLS for an amqps:// URL only', () => {
    expect(amqpSocketOptions(config({ AMQP_URL: 'amqp://u:p@mq:5672', AMQP_TLS_CA_FILE: caFile }))).toBeUndefined();
    expect(amqpSocketOptions(config({ AMQP_URL: 'amqps://u:p@mq:5671', AMQP_TLS_CA_FILE: caFile }))).toEqual({ rejectUnauthorized: true, ca });
  });

  it('make a Redis client that asks the Sentinels for the primary, with the URL\'s password, database and TLS', () => {
    const redis = createRedisClient(
      config({ REDIS_URL: 'rediss://:s3cret@ignored:6379/2', REDIS_SENTINELS: 'sentinel-a:26379, sentinel-b', REDIS_SENTINEL_MASTER: 'esim', REDIS_TLS_CA_FILE: caFile }),
      { lazyConnect: true },
    );
    try {
      expect(redis.options).toMatchObject({
        sentinels: [
          { host: 'sentinel-a', port: 26379 },
          { host: 'sentinel-b', port: 26379 },
        ],
        name: 'esim',
        password: 's3cret',
        db: 2,
        tls: { rejectUnauthorized: true, ca },
        enableTLSForSentinelMode: true,
      });
    } finally {
      redis.disconnect();
    }
  });

  it('make a plain Redis client from the URL without Sentinels', () => {
    const redis = createRedisClient(config({ REDIS_URL: 'redis://127.0.0.1:6390/1' }), { lazyConnect: true });
    try {
      expect(redis.options).toMatchObject({ host: '127.0.0.1', port: 6390, db: 1 });
      expect(redis.options.tls).toBeUndefined();
    } finally {
      redis.disconnect();
    }
  });

  it('refuse a Sentinel list that is not host:port pairs', () => {
    expect(() => config({ REDIS_SENTINELS: 'a:26379,,b:x' })).toThrow(/REDIS_SENTINELS/);
  });
});
