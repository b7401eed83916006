import {
  DynamicModule, Global, Injectable, Logger, Module, OnApplicationBootstrap, OnApplicationShutdown, Provider, Type,
} from '@nestjs/common';
import { DataSource } from 'typeorm';
import { PlatformConfig } from '../config/platform-config';
import { HEALTH_CHECKS, HealthCheck, HealthController } from '../health/health.controller';
import { openDataSource, PersistenceOptions } from '../persistence/data-source';
import { AmqpConnection } from '../messaging/amqp-connection';
import { EventConsumer } from '../messaging/event-consumer';
import { EventHandler } from '../messaging/event-handler';
import { OutboxRelay } from '../messaging/outbox-relay';
import { RpcClient } from '../messaging/rpc-client';
import { UnitOfWork } from '../messaging/unit-of-work';
import { loggingModule } from './logging.module';
import { CONFIG, SERVICE_NAME } from './tokens';

export interface ServicePlatformOptions {
  name: string;
  config: PlatformConfig;
  entities: PersistenceOptions['entities'];
  migrations: PersistenceOptions['migrations'];
  eventHandlers?: Type<EventHandler>[];
}

/** Starts the relay and consumer after boot; on shutdown stops taking work, then closes in order. */
@Injectable()
class PlatformLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly log = new Logger('Lifecycle');
  constructor(
    private readonly relay: OutboxRelay,
    private readonly consumer: EventConsumer,
    private readonly rpc: RpcClient,
    private readonly amqp: AmqpConnection,
    private readonly dataSource: DataSource,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.relay.start();
    await this.consumer.start();
  }

  async onApplicationShutdown(signal?: string): Promise<void> {
    this.log.log(`shutting down${signal ? ` on ${signal}` : ''}`);
    await this.consumer.stop();
    await this.relay.stop();
    await this.rpc.close();
    await this.amqp.close();
    await this.dataSource.destroy();
  }
}

/**
 * Everything a backend service stands on, wired the same way in every service: configuration,
 * logging, its own schema, the outbox relay, its event consumer, RPC to other services, health.
 */
@Global()
@Module({})
export class ServicePlatformModule {
  static forService(opts: ServicePlatformOptions): DynamicModule {
    const { config, name } = opts;
    const schema = config.DB_SCHEMA ?? name;
    const names = { exchange: config.EVENTS_EXCHANGE, queuePrefix: config.QUEUE_PREFIX };
    const handlers = opts.eventHandlers ?? [];
    const providers: Provider[] = [
      { provide: CONFIG, useValue: config },
      { provide: SERVICE_NAME, useValue: name },
      ...handlers,
      {
        provide: DataSource,
        useFactory: () => openDataSource({ url: config.DATABASE_URL, schema, entities: opts.entities, migrations: opts.migrations, poolSize: config.DB_POOL_SIZE }),
      },
      { provide: AmqpConnection, useFactory: () => new AmqpConnection(config.AMQP_URL, name) },
      {
        provide: OutboxRelay,
        inject: [DataSource, AmqpConnection],
        useFactory: (ds: DataSource, amqp: AmqpConnection) => new OutboxRelay(ds, amqp, { exchange: names.exchange, pollMs: config.OUTBOX_POLL_MS, retentionHours: config.OUTBOX_RETENTION_HOURS }),
      },
      { provide: UnitOfWork, inject: [DataSource, OutboxRelay], useFactory: (ds: DataSource, relay: OutboxRelay) => new UnitOfWork(ds, relay) },
      {
        provide: EventConsumer,
        inject: [DataSource, AmqpConnection, OutboxRelay, ...handlers],
        useFactory: (ds: DataSource, amqp: AmqpConnection, relay: OutboxRelay, ...instances: EventHandler[]) =>
          new EventConsumer(ds, amqp, relay, { ...names, consumer: name, deliveryLimit: config.EVENT_DELIVERY_LIMIT }, instances),
      },
      { provide: RpcClient, useFactory: () => new RpcClient({ ...names, url: config.AMQP_URL, timeoutMs: config.RPC_TIMEOUT_MS }) },
      {
        provide: HEALTH_CHECKS,
        inject: [DataSource, AmqpConnection],
        useFactory: (ds: DataSource, amqp: AmqpConnection): HealthCheck[] => [
          { name: 'database', check: async () => (await ds.query('SELECT 1')).length === 1 },
          { name: 'broker', check: async () => amqp.isConnected() },
        ],
      },
      PlatformLifecycle,
    ];
    return {
      module: ServicePlatformModule,
      imports: [loggingModule(name, config.LOG_LEVEL)],
      controllers: [HealthController],
      providers,
      exports: [CONFIG, SERVICE_NAME, DataSource, UnitOfWork, RpcClient, EventConsumer, OutboxRelay, AmqpConnection, HEALTH_CHECKS],
    };
  }
}
