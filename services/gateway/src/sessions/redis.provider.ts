import { Inject } from '@nestjs/common';
import Redis from 'ioredis';

export const REDIS = Symbol('REDIS');
export const InjectRedis = () => Inject(REDIS);

/** The gateway's Redis connection; every key it writes starts with REDIS_PREFIX. */
export function createRedis(url: string, prefix: string): Redis {
  return new Redis(url, { keyPrefix: prefix, maxRetriesPerRequest: 2, enableOfflineQueue: true });
}
