import { isIPv6 } from 'node:net';
import { Inject, Injectable } from '@nestjs/common';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { CONFIG, Counter, Metrics } from '@esim/platform';
import type { WebhooksConfig } from '../config';

/**
 * The address a refusal is counted against: an IPv4 address, or the /64 network of an IPv6 one
 * (one host is usually given a whole /64, so counting single IPv6 addresses would let it rotate).
 * Written by hand: node:net parses addresses but does not expand them, and this is all we need of it.
 */
export function refusalKey(sourceIp: string): string {
  if (!isIPv6(sourceIp)) return sourceIp;
  const [head, tail = ''] = sourceIp.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === '' ? [] : tail.split(':');
  // An embedded IPv4 tail (a.b.c.d) is the last 32 bits: it never reaches the first 64.
  const groups = sourceIp.includes('::') ? [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g || '0', 16).toString(16))
    .join(':')}::/64`;
}

/**
 * Decides whether a refused delivery is recorded: at most REFUSED_DELIVERIES_PER_MINUTE per source
 * address (refusalKey) and per replica are; beyond that the refusal is answered the same and
 * counted, not stored. Refusals come from whoever can reach the door; without a bound, one client
 * writes as fast as the database takes rows. Accepted deliveries are never limited here.
 */
@Injectable()
export class RefusedDeliveryGate {
  private readonly limiter: RateLimiterMemory | null;
  private readonly refusals: Counter<'provider' | 'outcome' | 'recorded'>;

  constructor(@Inject(CONFIG) config: WebhooksConfig, metrics: Metrics) {
    const perMinute = config.REFUSED_DELIVERIES_PER_MINUTE;
    this.limiter = perMinute > 0 ? new RateLimiterMemory({ points: perMinute, duration: 60 }) : null;
    this.refusals = metrics.counter({
      name: 'refused_deliveries_total',
      help: 'Refused provider deliveries by provider and outcome; recorded="false" for those over the per-address limit (REFUSED_DELIVERIES_PER_MINUTE), answered but not stored.',
      labelNames: ['provider', 'outcome', 'recorded'],
    });
  }

  /** True when this refusal is to be recorded; counts it either way. */
  async admit(provider: string, outcome: string, sourceIp: string): Promise<boolean> {
    const recorded = await this.withinLimit(sourceIp);
    this.refusals.inc({ provider, outcome, recorded: String(recorded) });
    return recorded;
  }

  private async withinLimit(sourceIp: string): Promise<boolean> {
    if (!this.limiter) return false;
    try {
      await this.limiter.consume(refusalKey(sourceIp));
      return true;
    } catch (err) {
      if (err instanceof RateLimiterRes) return false;
      throw err;
    }
  }
}
