import { DynamicModule, Global, Module, OnApplicationShutdown } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { AmqpConnection, CONFIG, HEALTH_CHECKS, HealthCheck, HealthController, loggingModule, RpcClient } from '@esim/platform';
import type Redis from 'ioredis';
import type { GatewayConfig } from './config';
import { FEATURE_MODULES } from './features';
import { AppErrorFilter } from './http/app-error.filter';
import { REDIS } from './sessions/redis.provider';
import { SessionsModule } from './sessions/sessions.module';

class BrokerCloser implements OnApplicationShutdown {
  constructor(private readonly rpc: RpcClient, private readonly amqp: AmqpConnection) {}
  async onApplicationShutdown() {
    await this.rpc.close();
    await this.amqp.close();
  }
}

@Global()
@Module({})
class GatewayCoreModule {
  static register(config: GatewayConfig): DynamicModule {
    return {
      module: GatewayCoreModule,
      providers: [
        { provide: CONFIG, useValue: config },
        { provide: RpcClient, useFactory: () => new RpcClient({ exchange: config.EVENTS_EXCHANGE, queuePrefix: config.QUEUE_PREFIX, url: config.AMQP_URL, timeoutMs: config.RPC_TIMEOUT_MS }) },
        { provide: AmqpConnection, useFactory: () => new AmqpConnection(config.AMQP_URL, 'gateway') },
        {
          provide: BrokerCloser,
          inject: [RpcClient, AmqpConnection],
          useFactory: (rpc: RpcClient, amqp: AmqpConnection) => new BrokerCloser(rpc, amqp),
        },
      ],
      exports: [CONFIG, RpcClient, AmqpConnection],
    };
  }
}

/** The public edge: sessions, the API for the SPA, provider webhooks and the SPA itself. */
@Module({})
export class GatewayModule {
  static register(config: GatewayConfig): DynamicModule {
    return {
      module: GatewayModule,
      imports: [loggingModule('gateway', config.LOG_LEVEL, { logRequests: true }), GatewayCoreModule.register(config), SessionsModule, ...FEATURE_MODULES],
      controllers: [HealthController],
      providers: [
        { provide: APP_FILTER, useClass: AppErrorFilter },
        {
          provide: HEALTH_CHECKS,
          inject: [REDIS, AmqpConnection],
          useFactory: (redis: Redis, amqp: AmqpConnection): HealthCheck[] => [
            { name: 'redis', check: async () => (await redis.ping()) === 'PONG' },
            { name: 'broker', check: async () => amqp.isConnected() },
          ],
        },
      ],
    };
  }
}
