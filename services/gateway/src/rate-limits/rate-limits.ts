import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Request } from 'express';
import type Redis from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { AppError, CONFIG } from '@esim/platform';
import type { GatewayConfig } from '../config';
import { InjectRedis } from '../sessions/redis.provider';
import type { RateLimitSetting } from './rate-limit-setting';

/** Each bucket and the variable that sizes it. */
const BUCKETS = {
  loginAccount: 'RATE_LIMIT_LOGIN_ACCOUNT',
  loginIp: 'RATE_LIMIT_LOGIN_IP',
  signupIp: 'RATE_LIMIT_SIGNUP_IP',
  signupEmail: 'RATE_LIMIT_SIGNUP_EMAIL',
  verifyIp: 'RATE_LIMIT_VERIFY_IP',
  resendEmail: 'RATE_LIMIT_RESEND_EMAIL',
  resendIp: 'RATE_LIMIT_RESEND_IP',
  forgotEmail: 'RATE_LIMIT_FORGOT_EMAIL',
  forgotIp: 'RATE_LIMIT_FORGOT_IP',
  passwordCheckUser: 'RATE_LIMIT_PASSWORD_CHECK_USER',
  iccidUser: 'RATE_LIMIT_ICCID_USER',
  iccidIp: 'RATE_LIMIT_ICCID_IP',
  paymentUser: 'RATE_LIMIT_PAYMENT_USER',
  paymentIp: 'RATE_LIMIT_PAYMENT_IP',
  devicesIp: 'RATE_LIMIT_DEVICES_IP',
  unsubscribeIp: 'RATE_LIMIT_UNSUBSCRIBE_IP',
} as const satisfies Record<string, keyof GatewayConfig>;
export type Bucket = keyof typeof BUCKETS;

/** One attempt against one bucket, e.g. ['loginIp', clientNetwork(req)]. */
export type Hit = readonly [Bucket, string];

/** The same answer whichever bucket ran out, so the answer tells nothing about accounts. */
export const tooManyAttempts = () => new AppError('too_many_attempts', 'Too many attempts. Please try again later.');

/**
 * Fixed-window attempt counters in Redis, shared by every gateway replica. Keys are hashed, so
 * emails never sit in Redis in clear. Per-IP buckets count the client's network (clientNetwork:
 * an IPv4 address, or an IPv6 /64) of `req.ip`: the socket's address, unless TRUST_PROXY names
 * the proxies whose X-Forwarded-For may be believed.
 */
@Injectable()
export class RateLimits {
  private readonly log = new Logger('RateLimits');
  private readonly limiters: Record<Bucket, RateLimiterRedis>;

  constructor(@InjectRedis() redis: Redis, @Inject(CONFIG) config: GatewayConfig) {
    const entries = Object.entries(BUCKETS).map(([bucket, variable]) => {
      const { points, seconds } = config[variable] as RateLimitSetting;
      return [bucket, new RateLimiterRedis({ storeClient: redis, keyPrefix: `rl:${bucket}`, points, duration: seconds })];
    });
    this.limiters = Object.fromEntries(entries) as Record<Bucket, RateLimiterRedis>;
  }

  /** Counts one attempt in every bucket given; 429 (with Retry-After) if any of them is spent. */
  async consume(req: Request, ...hits: Hit[]): Promise<void> {
    const results = await Promise.allSettled(hits.map(([bucket, key]) => this.limiters[bucket].consume(hashKey(key))));
    const refused = results.flatMap((r, i) => (r.status === 'rejected' ? [{ reason: r.reason as unknown, bucket: hits[i][0] }] : []));
    if (refused.length === 0) return;
    const limited = refused.filter((r) => r.reason instanceof RateLimiterRes);
    if (limited.length < refused.length) {
      this.log.error(
        `rate limit store failed: ${String((refused.find((r) => !(r.reason instanceof RateLimiterRes))?.reason as Error)?.message)}`,
      );
      throw new AppError('service_unavailable', 'The service is temporarily unavailable. Please try again in a moment.');
    }
    const waitMs = Math.max(...limited.map((r) => (r.reason as RateLimiterRes).msBeforeNext));
    req.res?.setHeader('Retry-After', String(Math.ceil(waitMs / 1000)));
    this.log.warn({ rateLimited: limited.map((r) => r.bucket), ip: req.ip }, 'rate limited');
    throw tooManyAttempts();
  }

  /** Gives back an attempt that turned out not to be abuse (a successful sign-in from this IP). */
  async refund(...hits: Hit[]): Promise<void> {
    await Promise.all(hits.map(([bucket, key]) => this.limiters[bucket].reward(hashKey(key), 1)));
  }

  /** Forgets a bucket's count for a key (an account's failed sign-ins after it signed in). */
  async reset(...hits: Hit[]): Promise<void> {
    await Promise.all(hits.map(([bucket, key]) => this.limiters[bucket].delete(hashKey(key))));
  }
}

function hashKey(key: string): string {
  return createHash('sha256').update(key.trim().toLowerCase()).digest('base64url');
}
