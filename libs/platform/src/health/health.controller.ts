import { Controller, Get, HttpCode, Inject, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Draining } from './draining';

export interface HealthCheck {
  name: string;
  check(): Promise<boolean>;
  /**
   * A dependency the pod can serve without, in a degraded way (the gateway's Redis: sessions and
   * rate limits answer 503 while it is away, the SPA and public pages do not): reported, never
   * the reason the pod leaves its Service. A blip of a shared dependency must not take every
   * replica out at once.
   */
  optional?: boolean;
}
export const HEALTH_CHECKS = Symbol('HEALTH_CHECKS');

/**
 * A check that has not answered by then counts as down: a dependency that hangs (a Redis whose
 * client queues commands while it reconnects) must not make the probe itself time out, which the
 * kubelet counts as a failure of every check, the required ones too.
 */
const CHECK_TIMEOUT_MS = 1_500;
const withinTimeout = (check: Promise<boolean>): Promise<boolean> =>
  new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), CHECK_TIMEOUT_MS);
    check.then(
      (up) => resolve(up),
      () => resolve(false),
    ).finally(() => clearTimeout(timer));
  });

/**
 * Liveness answers while the process runs; readiness only when what the pod itself needs answers
 * (its database and broker; an optional dependency is reported, not required) and it is not
 * draining for a stop.
 */
@Controller('health')
export class HealthController {
  constructor(
    @Inject(HEALTH_CHECKS) private readonly checks: HealthCheck[],
    private readonly draining: Draining,
  ) {}

  @Get('live')
  @HttpCode(200)
  live() {
    return { status: 'ok' };
  }

  @Get('ready')
  async ready(@Res({ passthrough: true }) res: Response) {
    const results = await Promise.all(
      this.checks.map(async (c) => [c, await withinTimeout(c.check())] as const),
    );
    const ok = results.every(([c, up]) => up || c.optional);
    const checks = Object.fromEntries(results.map(([c, up]) => [c.name, up ? 'up' : c.optional ? 'degraded' : 'down']));
    if (this.draining.active) {
      res.status(503);
      return { status: 'draining', checks };
    }
    res.status(ok ? 200 : 503);
    return { status: ok ? 'ok' : 'unavailable', checks };
  }
}
