import { Controller, Get, HttpCode, Inject, Res } from '@nestjs/common';
import type { Response } from 'express';

export interface HealthCheck {
  name: string;
  check(): Promise<boolean>;
}
export const HEALTH_CHECKS = Symbol('HEALTH_CHECKS');

/** Liveness answers while the process runs; readiness only when its database and broker answer. */
@Controller('health')
export class HealthController {
  constructor(@Inject(HEALTH_CHECKS) private readonly checks: HealthCheck[]) {}

  @Get('live')
  @HttpCode(200)
  live() {
    return { status: 'ok' };
  }

  @Get('ready')
  async ready(@Res({ passthrough: true }) res: Response) {
    const results = await Promise.all(
      this.checks.map(async (c) => [c.name, await c.check().catch(() => false)] as const),
    );
    const ok = results.every(([, up]) => up);
    res.status(ok ? 200 : 503);
    return { status: ok ? 'ok' : 'unavailable', checks: Object.fromEntries(results.map(([n, up]) => [n, up ? 'up' : 'down'])) };
  }
}
