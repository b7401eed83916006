import { readFileSync } from 'node:fs';
import Redis, { type RedisOptions } from 'ioredis';
import type { PlatformConfig } from './platform-config';

/** What the clients (pg, amqplib, ioredis) are given: a subset every one of them accepts. */
export interface VerifiedTls {
  rejectUnauthorized: true;
  ca?: string;
  servername?: string;
}

/** The TLS settings of one backing service, as the platform's configuration names them. */
type TlsSettings = { caFile?: string; servername?: string };

/**
 * A TLS client configuration that verifies the server: its certificate chains to the CA bundle
 * (or, without one, to Node's public roots) and names `servername` (or the host the URL names).
 * Never `rejectUnauthorized: false`: an unverified TLS link is no protection against whoever
 * sits between the pod and a managed database.
 */
function verifiedTls({ caFile, servername }: TlsSettings): VerifiedTls {
  return {
    rejectUnauthorized: true,
    ...(caFile ? { ca: readFileSync(caFile, 'utf8') } : {}),
    ...(servername ? { servername } : {}),
  };
}

/** Postgres' TLS (`ssl` of pg and TypeORM), or undefined when DB_TLS is off. */
export function postgresTls(config: Pick<PlatformConfig, 'DB_TLS' | 'DB_TLS_CA_FILE' | 'DB_TLS_SERVERNAME'>): VerifiedTls | undefined {
  if (!config.DB_TLS) return undefined;
  return verifiedTls({ caFile: config.DB_TLS_CA_FILE, servername: config.DB_TLS_SERVERNAME });
}

/**
 * amqplib's socket options for AMQP_URL: an `amqps://` URL is TLS, verified against
 * AMQP_TLS_CA_FILE and AMQP_TLS_SERVERNAME; an `amqp://` one is plain.
 */
export function amqpSocketOptions(config: Pick<PlatformConfig, 'AMQP_URL' | 'AMQP_TLS_CA_FILE' | 'AMQP_TLS_SERVERNAME'>): VerifiedTls | undefined {
  if (!config.AMQP_URL.startsWith('amqps:')) return undefined;
  return verifiedTls({ caFile: config.AMQP_TLS_CA_FILE, servername: config.AMQP_TLS_SERVERNAME });
}

type RedisSettings = Pick<PlatformConfig, 'REDIS_URL' | 'REDIS_TLS_CA_FILE' | 'REDIS_TLS_SERVERNAME' | 'REDIS_SENTINELS' | 'REDIS_SENTINEL_MASTER' | 'REDIS_SENTINEL_PASSWORD'>;

/**
 * A Redis client from the platform's settings: REDIS_URL (its password, database number, and
 * `rediss://` for TLS), or, with REDIS_SENTINELS, the primary the Sentinels name for
 * REDIS_SENTINEL_MASTER (ioredis asks them again after a failover); the URL's password and
 * database still apply to the primary. Every process that talks to Redis makes its clients here.
 */
export function createRedisClient(config: RedisSettings, options: RedisOptions = {}): Redis {
  const url = new URL(config.REDIS_URL);
  const tlsOn = url.protocol === 'rediss:';
  const tls = tlsOn ? verifiedTls({ caFile: config.REDIS_TLS_CA_FILE, servername: config.REDIS_TLS_SERVERNAME }) : undefined;
  const sentinels = (config.REDIS_SENTINELS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (sentinels.length === 0) return new Redis(config.REDIS_URL, { ...(tls ? { tls } : {}), ...options });
  const db = Number(url.pathname.replace(/^\//, '') || 0);
  return new Redis({
    sentinels: sentinels.map((hostPort) => {
      const [host, port] = hostPort.split(':');
      return { host, port: Number(port || 26379) };
    }),
    name: config.REDIS_SENTINEL_MASTER,
    sentinelPassword: config.REDIS_SENTINEL_PASSWORD,
    username: url.username ? decodeURIComponent(url.username) : undefined,
    password: url.password ? decodeURIComponent(url.password) : undefined,
    db,
    ...(tls ? { tls, sentinelTLS: tls, enableTLSForSentinelMode: true } : {}),
    ...options,
  });
}
