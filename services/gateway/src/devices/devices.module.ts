import { Module } from '@nestjs/common';
import { RateLimitsModule } from '../rate-limits/rate-limits.module';
import { CompatibilityController } from './compatibility.controller';
import { DeviceCatalogue } from './device-catalogue';
import deviceList from './data/esim-devices.json';

/** Which phones hold an eSIM, from the device list kept in the repository (data/esim-devices.json). */
@Module({
  imports: [RateLimitsModule],
  controllers: [CompatibilityController],
  providers: [{ provide: DeviceCatalogue, useFactory: () => new DeviceCatalogue(deviceList) }],
})
export class DevicesModule {}
