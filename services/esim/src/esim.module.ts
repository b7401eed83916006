import { DynamicModule, Module } from '@nestjs/common';
import { ServicePlatformModule } from '@esim/platform';
import { EsimConfig } from './config';
import { DataGift } from './gifts/data-gift.entity';
import { GiftSummaryRpcHandler } from './gifts/gift-summary.rpc-handler';
import { DataGifts1732060900000 } from './migrations/1732060900000-data-gifts';

@Module({})
export class EsimModule {
  static register(config: EsimConfig): DynamicModule {
    return {
      module: EsimModule,
      imports: [ServicePlatformModule.forService({ name: 'esim', config, entities: [DataGift], migrations: [DataGifts1732060900000] })],
      controllers: [GiftSummaryRpcHandler],
    };
  }
}
