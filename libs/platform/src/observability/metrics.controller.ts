import { createHash, timingSafeEqual } from 'node:crypto';
import { Controller, Get, Headers, HttpException, Inject, Optional, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Metrics } from './metrics';

/** Set to require `Authorization: Bearer <token>` on /metrics (the gateway's port is public). */
export const METRICS_TOKEN = Symbol('METRICS_TOKEN');

/** Prometheus' scrape endpoint, beside /health on every process's HTTP port. */
@Controller('metrics')
export class MetricsController {
  constructor(
    private readonly metrics: Metrics,
    @Optional() @Inject(METRICS_TOKEN) private readonly token?: string,
  ) {}

  @Get()
  async scrape(@Headers('authorization') authorization: string | undefined, @Res() res: Response): Promise<void> {
    if (this.token && !sameSecret(authorization ?? '', `Bearer ${this.token}`)) throw new HttpException({ message: 'Unauthorized', code: 'unauthorized' }, 401);
    const { contentType, body } = await this.metrics.scrape();
    res.status(200).setHeader('Content-Type', contentType);
    res.setHeader('Cache-Control', 'no-store');
    res.send(body);
  }
}

const digest = (s: string) => createHash('sha256').update(s).digest();
const sameSecret = (given: string, expected: string) => timingSafeEqual(digest(given), digest(expected));
