import { Module } from '@nestjs/common';
import { PushController } from './push.controller';

/** The browsers' Web Push subscriptions, relayed to notifications. */
@Module({ controllers: [PushController] })
export class PushModule {}
