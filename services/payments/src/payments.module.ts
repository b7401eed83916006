import { DynamicModule, Module } from '@nestjs/common';
import { ServicePlatformModule } from '@esim/platform';
import { PaymentsConfig } from './config';

@Module({})
export class PaymentsModule {
  static register(config: PaymentsConfig): DynamicModule {
    return {
      module: PaymentsModule,
      imports: [ServicePlatformModule.forService({ name: 'payments', config, entities: [], migrations: [] })],
    };
  }
}
