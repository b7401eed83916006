import { Module } from '@nestjs/common';
import { PlansController } from './plans.controller';

/** Plan prices in the buyer's currency (public /api/plans). */
@Module({ controllers: [PlansController] })
export class PlansModule {}
