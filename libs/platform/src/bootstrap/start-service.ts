import { DynamicModule, INestApplication, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MicroserviceOptions, Transport } from '@nestjs/microservices';
import { Logger as PinoNestLogger } from 'nestjs-pino';
import { PlatformConfig } from '../config/platform-config';
import { z } from 'zod';
import { ConfigError, Env, loadConfig } from '../config/load-config';
import { rpcQueueName } from '../messaging/topology';

export interface StartServiceOptions {
  name: string;
  module: DynamicModule | Type;
  config: PlatformConfig;
  /** HTTP port for health endpoints; 0 picks a free one (tests). */
  port: number;
  /** Answer RPC on `<prefix><name>.rpc` (every backend service does; the gateway does not). */
  rpc?: boolean;
  /** Install SIGTERM/SIGINT handlers (main.ts does; tests close apps themselves). */
  shutdownHooks?: boolean;
  configure?: (app: INestApplication) => void | Promise<void>;
  /** Lets an edge service parse bodies itself (size limits, raw bodies for signatures). */
  bodyParser?: boolean;
}

export async function startService(opts: StartServiceOptions): Promise<INestApplication> {
  const app = await NestFactory.create(opts.module, { bufferLogs: true, abortOnError: false, bodyParser: opts.bodyParser ?? true });
  app.useLogger(app.get(PinoNestLogger));
  app.flushLogs();
  if (opts.shutdownHooks) app.enableShutdownHooks();
  await opts.configure?.(app);
  if (opts.rpc !== false) {
    const names = { exchange: opts.config.EVENTS_EXCHANGE, queuePrefix: opts.config.QUEUE_PREFIX };
    app.connectMicroservice<MicroserviceOptions>(
      {
        transport: Transport.RMQ,
        options: { urls: [opts.config.AMQP_URL], queue: rpcQueueName(names, opts.name), queueOptions: { durable: true }, prefetchCount: 32 },
      },
      { inheritAppConfig: true },
    );
    await app.startAllMicroservices();
  }
  await app.listen(opts.port);
  return app;
}

/** Entry point of every service's main.ts: a configuration error is one readable message and exit 1. */
export function runService(start: () => Promise<unknown>): void {
  start().catch((err: unknown) => {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
    } else {
      process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    }
    process.exit(1);
  });
}

export interface ServiceDefinition<S extends z.ZodObject> {
  name: string;
  configSchema: S;
  defaultPort: number;
  module: (config: z.infer<S>) => DynamicModule;
}

/**
 * The start function of a service: configuration is read from the given environment
 * (process.env in main.ts, a test namespace in tests), then the app boots.
 */
export function serviceStarter<S extends z.ZodObject>(def: ServiceDefinition<S>) {
  return (env: Env, opts: Pick<StartServiceOptions, 'shutdownHooks'> = {}): Promise<INestApplication> => {
    const config = loadConfig(def.configSchema, env) as z.infer<S> & PlatformConfig;
    return startService({ name: def.name, module: def.module(config), config, port: config.HEALTH_PORT ?? def.defaultPort, ...opts });
  };
}
