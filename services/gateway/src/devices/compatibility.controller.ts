import { Controller, Get, Inject, Query, Req } from '@nestjs/common';
import type { Request } from 'express';
import { deviceCompatibilityQuerySchema, type DeviceCompatibility } from '@esim/contracts';
import { ZodPipe } from '../common/zod.pipe';
import { clientNetwork } from '../rate-limits/client-network';
import { RateLimits } from '../rate-limits/rate-limits';
import { DeviceCatalogue } from './device-catalogue';

/**
 * Compatibility before earning (docs/wallet.md, "Will it work on my phone?"): a public question,
 * asked by the landing page before sign-up, so it is counted per client network
 * (RATE_LIMIT_DEVICES_IP) like the other public routes.
 */
@Controller('api/devices')
export class CompatibilityController {
  constructor(
    @Inject(DeviceCatalogue) private readonly catalogue: DeviceCatalogue,
    private readonly limits: RateLimits,
  ) {}

  @Get('compatibility')
  async compatibility(
    @Req() req: Request,
    @Query(new ZodPipe(deviceCompatibilityQuerySchema)) query: { model: string; brand?: string },
  ): Promise<DeviceCompatibility> {
    await this.limits.consume(req, ['devicesIp', clientNetwork(req)]);
    return this.catalogue.answer(query.model, query.brand);
  }
}
