import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { ServicePlatformModule } from '@esim/platform';
import type { GatewayConfig } from './config';
import { FEATURE_MODULES } from './features';
import { AppErrorFilter } from './http/app-error.filter';
import { SessionsModule } from './sessions/sessions.module';

/**
 * The public edge: sessions, the API for the SPA, provider webhooks and the SPA itself, on the
 * same platform as every service (config, logging, health, shutdown, one broker connection for
 * its RPC calls and its event consumer). It has no database: its inbox is in Redis.
 */
@Module({})
export class GatewayModule {
  static register(config: GatewayConfig): DynamicModule {
    return {
      module: GatewayModule,
      imports: [ServicePlatformModule.forService({ name: 'gateway', config, database: false, logRequests: true }), SessionsModule, ...FEATURE_MODULES],
      providers: [{ provide: APP_FILTER, useClass: AppErrorFilter }],
    };
  }
}
