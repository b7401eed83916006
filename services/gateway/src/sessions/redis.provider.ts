import { Inject } from '@nestjs/common';
import type Redis from 'ioredis';
import { createRedisClient, type PlatformConfig } from '@esim/platform';

export const REDIS = Symbol('REDIS');
export const InjectRedis = () => Inject(REDIS);

/** The gateway's Redis connection (TLS and Sentinel from the platform's settings); every key it writes starts with REDIS_PREFIX. */
export function createRedis(config: PlatformConfig): Redis {
  return createRedisClient(config, { keyPrefix: config.REDIS_PREFIX, maxRetriesPerRequest: 2, enableOfflineQueue: true });
}
