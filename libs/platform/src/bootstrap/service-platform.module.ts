import { DynamicModule, FactoryProvider, Global, Logger, Module, OnApplicationBootstrap, OnApplicationShutdown, OnModuleInit, Provider } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { SERVICE_PORTS, ServicePort } from '@esim/contracts';
import { amqpSocketOptions, createRedisClient, postgresTls } from '../config/backing-services';
import { PlatformConfig } from '../config/platform-config';
import { Draining } from '../health/draining';
import { HEALTH_CHECKS, HealthCheck, HealthController } from '../health/health.controller';
import { openDataSource, PersistenceOptions } from '../persistence/data-source';
import { AdminAuthority, IdentityAdminAuthority } from '../messaging/admin-authority';
import { AmqpConnection } from '../messaging/amqp-connection';
import { EventConsumer } from '../messaging/event-consumer';
import { Inbox, PostgresInbox, RedisInbox } from '../messaging/inbox';
import { OutboxRelay } from '../messaging/outbox-relay';
import { RpcClient } from '../messaging/rpc-client';
import { UnitOfWork } from '../messaging/unit-of-work';
import { CommitHooks } from '../observability/after-commit';
import { Metrics } from '../observability/metrics';
import { METRICS_TOKEN, MetricsController } from '../observability/metrics.controller';
import { PlatformMetrics } from '../observability/platform-metrics';
import { QueueInspector } from '../observability/queue-inspector';
import { flushTracing } from '../observability/tracing';
import { HandlerDiscovery, PortMismatchError, portMismatches } from './handler-discovery';
import { loggingModule } from './logging.module';
import { inboxRetention } from '../retention/inbox-retention';
import { RetentionJob, RetentionSweeper } from '../retention/retention-sweeper';
import { CONFIG, PLATFORM_REDIS, SERVICE_NAME, SERVICE_PORT } from './tokens';

export interface ServicePlatformOptions {
  name: string;
  config: PlatformConfig;
  entities?: PersistenceOptions['entities'];
  migrations?: PersistenceOptions['migrations'];
  /**
   * false for a process without a database of its own (the gateway): no outbox, so it cannot
   * publish; its event inbox lives in Redis (see RedisInbox).
   */
  database?: boolean;
  /** The wire surface checked at start-up. Default: the service's port in libs/contracts. */
  port?: ServicePort;
  /** Log every HTTP request (the gateway). */
  logRequests?: boolean;
  /**
   * Who says whether the acting user of an admin-only RPC is an admin. Default: identity, asked
   * over RPC; identity itself answers from its own table.
   */
  adminAuthority?: Omit<FactoryProvider<AdminAuthority>, 'provide'>;
  /** The service's own retention jobs, beside the inbox's (docs/accounts.md, "Retention"). */
  retention?: RetentionJob[];
}

/** What the lifecycle watches for the metrics: the outbox (with a database) and the consumer's queues. */
interface Observed {
  metrics: PlatformMetrics;
  inspector: QueueInspector;
  /** METRICS_QUEUE_REFRESH_MS. */
  queueRefreshMs: number;
}

/**
 * Checks the discovered handlers against the port, starts the relay and consumer after boot, and
 * on shutdown stops taking work, then closes in order.
 */
class PlatformLifecycle implements OnModuleInit, OnApplicationBootstrap, OnApplicationShutdown {
  private readonly log = new Logger('Lifecycle');
  private shutdown?: Promise<void>;
  private stopQueueRefresh?: () => void;
  constructor(
    private readonly port: ServicePort,
    private readonly discovery: HandlerDiscovery,
    private readonly consumer: EventConsumer,
    private readonly rpc: RpcClient,
    private readonly amqp: AmqpConnection,
    private readonly store: { relay?: OutboxRelay; dataSource?: DataSource; redis?: Redis },
    private readonly observed: Observed,
  ) {}

  onModuleInit(): void {
    const events = this.discovery.eventHandlers();
    const problems = portMismatches(this.port, events, this.discovery.rpcHandlers());
    if (problems.length > 0) throw new PortMismatchError(this.port.name, problems);
    this.consumer.bind(events);
    const { metrics, inspector } = this.observed;
    if (this.store.dataSource) metrics.watchOutbox(this.store.dataSource);
    // Only a consumer with handlers declares its queues (EventConsumer.start).
    this.stopQueueRefresh = metrics.watchQueues(
      inspector,
      () => (this.consumer.eventTypes.length > 0 ? { queue: this.consumer.queue, deadLetterQueue: this.consumer.deadLetterQueue } : undefined),
      this.observed.queueRefreshMs,
    );
  }

  async onApplicationBootstrap(): Promise<void> {
    this.store.relay?.start();
    await this.consumer.start();
  }

  /** Once, however many times the app is closed. */
  onApplicationShutdown(signal?: string): Promise<void> {
    this.shutdown ??= this.close(signal);
    return this.shutdown;
  }

  private async close(signal?: string): Promise<void> {
    this.log.log(`shutting down${signal ? ` on ${signal}` : ''}`);
    await this.consumer.stop();
    await this.store.relay?.stop();
    await this.rpc.close();
    this.stopQueueRefresh?.();
    await this.observed.inspector.close();
    await this.amqp.close();
    await this.store.dataSource?.destroy();
    await this.store.redis?.quit().catch(() => this.store.redis?.disconnect());
    await flushTracing();
  }
}

/**
 * Everything a process stands on, wired the same way in every service and the gateway:
 * configuration, logging, one broker connection (events, RPC server and client share it), its own
 * schema with the outbox relay (or, without a database, a Redis inbox), its event consumer with
 * the @EventHandler classes found in its modules, the check against its port, and health.
 */
@Global()
@Module({})
export class ServicePlatformModule {
  static forService(opts: ServicePlatformOptions): DynamicModule {
    const { config, name } = opts;
    const port = opts.port ?? SERVICE_PORTS[name as keyof typeof SERVICE_PORTS];
    if (!port) throw new Error(`${name} has no port: declare it in libs/contracts/src/ports/ and SERVICE_PORTS`);
    const withDatabase = opts.database !== false;
    const names = { exchange: config.EVENTS_EXCHANGE, queuePrefix: config.QUEUE_PREFIX };
    const consumerOptions = (metrics: PlatformMetrics) => ({ ...names, consumer: name, deliveryLimit: config.EVENT_DELIVERY_LIMIT, groupSpacingMs: config.EVENT_GROUP_SPACING_MS, metrics });

    const storage: Provider[] = withDatabase
      ? [
          {
            provide: DataSource,
            useFactory: async () => {
              const ds = await openDataSource({ url: config.DATABASE_URL, schema: config.DB_SCHEMA ?? name, entities: opts.entities ?? [], migrations: opts.migrations ?? [], poolSize: config.DB_POOL_SIZE, poolMin: config.DB_POOL_MIN, backendFlushAfterKb: config.DB_BACKEND_FLUSH_AFTER_KB, migrationLockTimeoutMs: config.DB_MIGRATION_LOCK_TIMEOUT_MS, migrationStatementTimeoutMs: config.DB_MIGRATION_STATEMENT_TIMEOUT_MS, ssl: postgresTls(config), applicationName: name, onWait: (what, err, retryInMs) => new Logger('Startup').warn(`waiting for ${what}: ${err.message}; retrying in ${retryInMs} ms`) });
              // afterCommit (domain counters) hears of commits through it.
              ds.subscribers.push(new CommitHooks());
              return ds;
            },
          },
          {
            provide: OutboxRelay,
            inject: [DataSource, AmqpConnection, PlatformMetrics],
            useFactory: (ds: DataSource, amqp: AmqpConnection, metrics: PlatformMetrics) =>
              new OutboxRelay(ds, amqp, {
                exchange: names.exchange,
                pollMs: config.OUTBOX_POLL_MS,
                batchSize: config.OUTBOX_BATCH_SIZE,
                retentionHours: config.OUTBOX_RETENTION_HOURS,
                maxAttempts: config.OUTBOX_MAX_ATTEMPTS,
                metrics,
                service: name,
              }),
          },
          { provide: UnitOfWork, inject: [DataSource, OutboxRelay], useFactory: (ds: DataSource, relay: OutboxRelay) => new UnitOfWork(ds, relay) },
          { provide: PostgresInbox, inject: [DataSource, OutboxRelay], useFactory: (ds: DataSource, relay: OutboxRelay) => new PostgresInbox(ds, relay) },
          {
            provide: EventConsumer,
            inject: [AmqpConnection, PostgresInbox, PlatformMetrics],
            useFactory: (amqp: AmqpConnection, inbox: Inbox, metrics: PlatformMetrics) => new EventConsumer(amqp, inbox, consumerOptions(metrics)),
          },
          {
            provide: RetentionSweeper,
            inject: [DataSource],
            useFactory: (ds: DataSource) =>
              new RetentionSweeper(ds, config.DB_SCHEMA ?? name, [inboxRetention(config.INBOX_RETENTION_DAYS), ...(opts.retention ?? [])], config.RETENTION_SWEEP_MS),
          },
          {
            provide: HEALTH_CHECKS,
            inject: [DataSource, AmqpConnection],
            useFactory: (ds: DataSource, amqp: AmqpConnection): HealthCheck[] => [
              { name: 'database', check: async () => (await ds.query('SELECT 1')).length === 1 },
              { name: 'broker', check: async () => amqp.isConnected() },
            ],
          },
          {
            provide: PlatformLifecycle,
            inject: [HandlerDiscovery, EventConsumer, RpcClient, AmqpConnection, OutboxRelay, DataSource, PlatformMetrics, QueueInspector],
            useFactory: (d: HandlerDiscovery, c: EventConsumer, rpc: RpcClient, amqp: AmqpConnection, relay: OutboxRelay, dataSource: DataSource, metrics: PlatformMetrics, inspector: QueueInspector) =>
              new PlatformLifecycle(port, d, c, rpc, amqp, { relay, dataSource }, { metrics, inspector, queueRefreshMs: config.METRICS_QUEUE_REFRESH_MS ?? 10_000 }),
          },
        ]
      : [
          {
            provide: PLATFORM_REDIS,
            // Auto-pipelining: the inbox's commands for concurrent deliveries go out in one write (a
            // write per command was a third of the gateway's time in a burst of per-task credit events, since replaced by TasksCredited).
            useFactory: () => createRedisClient(config, { keyPrefix: config.REDIS_PREFIX, maxRetriesPerRequest: 2, enableAutoPipelining: true }),
          },
          {
            provide: EventConsumer,
            inject: [AmqpConnection, PLATFORM_REDIS, PlatformMetrics],
            useFactory: (amqp: AmqpConnection, redis: Redis, metrics: PlatformMetrics) =>
              new EventConsumer(amqp, new RedisInbox(redis, config.INBOX_TTL_HOURS * 3600), consumerOptions(metrics)),
          },
          {
            provide: HEALTH_CHECKS,
            inject: [PLATFORM_REDIS, AmqpConnection],
            useFactory: (redis: Redis, amqp: AmqpConnection): HealthCheck[] => [
              // Optional: the gateway degrades without Redis (sessions and limits answer 503), and a
              // Redis blip must not take every gateway replica, and the SPA with them, out at once.
              { name: 'redis', check: async () => (await redis.ping()) === 'PONG', optional: true },
              { name: 'broker', check: async () => amqp.isConnected() },
            ],
          },
          {
            provide: PlatformLifecycle,
            inject: [HandlerDiscovery, EventConsumer, RpcClient, AmqpConnection, PLATFORM_REDIS, PlatformMetrics, QueueInspector],
            useFactory: (d: HandlerDiscovery, c: EventConsumer, rpc: RpcClient, amqp: AmqpConnection, redis: Redis, metrics: PlatformMetrics, inspector: QueueInspector) =>
              new PlatformLifecycle(port, d, c, rpc, amqp, { redis }, { metrics, inspector, queueRefreshMs: config.METRICS_QUEUE_REFRESH_MS ?? 10_000 }),
          },
        ];

    return {
      module: ServicePlatformModule,
      imports: [DiscoveryModule, loggingModule(name, config.LOG_LEVEL, { logRequests: opts.logRequests, format: config.LOG_FORMAT })],
      controllers: [HealthController, MetricsController],
      providers: [
        { provide: CONFIG, useValue: config },
        { provide: SERVICE_NAME, useValue: name },
        { provide: SERVICE_PORT, useValue: port },
        Draining,
        { provide: AmqpConnection, useFactory: () => new AmqpConnection(config.AMQP_URL, name, amqpSocketOptions(config)) },
        { provide: Metrics, useFactory: () => new Metrics(name) },
        { provide: PlatformMetrics, inject: [Metrics], useFactory: (metrics: Metrics) => new PlatformMetrics(metrics) },
        { provide: METRICS_TOKEN, useValue: config.METRICS_TOKEN },
        { provide: QueueInspector, inject: [AmqpConnection], useFactory: (amqp: AmqpConnection) => new QueueInspector(amqp) },
        {
          provide: RpcClient,
          inject: [AmqpConnection, PlatformMetrics],
          useFactory: (amqp: AmqpConnection, metrics: PlatformMetrics) => new RpcClient({ ...names, connection: amqp, timeoutMs: config.RPC_TIMEOUT_MS, metrics, service: name }),
        },
        opts.adminAuthority
          ? { provide: AdminAuthority, ...opts.adminAuthority }
          : { provide: AdminAuthority, inject: [RpcClient], useFactory: (rpc: RpcClient) => new IdentityAdminAuthority(rpc) },
        HandlerDiscovery,
        ...storage,
      ],
      exports: [
        CONFIG, SERVICE_NAME, SERVICE_PORT, Draining, AmqpConnection, RpcClient, AdminAuthority, EventConsumer, HEALTH_CHECKS, Metrics, PlatformMetrics,
        ...(withDatabase ? [DataSource, UnitOfWork, OutboxRelay, RetentionSweeper] : [PLATFORM_REDIS]),
      ],
    };
  }
}
