import { DynamicModule, INestApplication, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Logger as PinoNestLogger } from 'nestjs-pino';
import { z } from 'zod';
import { DEFAULT_HTTP_PORTS, type ServiceName, type ServicePort } from '@esim/contracts';
import { PlatformConfig } from '../config/platform-config';
import { brokerCredentialProblem } from '../config/broker-credentials';
import { ConfigError, Env, loadConfig } from '../config/load-config';
import { AdminAuthority } from '../messaging/admin-authority';
import { AmqpConnection } from '../messaging/amqp-connection';
import { AmqpRpcServer } from '../messaging/rpc-server';
import { rpcQueueName } from '../messaging/topology';
import { httpObserver } from '../observability/http-observer';
import { PlatformMetrics } from '../observability/platform-metrics';
import { startTracing } from '../observability/tracing';
import { GracefulStop } from './graceful-stop';
import { OperatorPort } from './operator-port';
import { SERVICE_PORT } from './tokens';

export interface StartServiceOptions {
  name: string;
  module: DynamicModule | Type;
  config: PlatformConfig;
  /** HTTP port (health endpoints, and the API for the gateway); 0 picks a free one (tests). */
  port: number;
  /**
   * Internal port of /metrics and /health/* when `port` is public (OperatorPort): the public port
   * then answers neither. Unset: both are served on `port` (a backend service's private port).
   */
  opsPort?: number;
  /** Install SIGTERM/SIGINT handlers that drain, then stop (GracefulStop; main.ts does; tests close apps themselves). */
  shutdownHooks?: boolean;
  /** Express middleware of an edge process, installed before the routes. */
  configure?: (app: INestApplication) => void | Promise<void>;
  /** Lets an edge service parse bodies itself (size limits, raw bodies for signatures). */
  bodyParser?: boolean;
}

/**
 * Boots a process built on ServicePlatformModule: logger, lifecycle (the handlers are checked
 * against the port before anything consumes), the RPC server when the port answers any RPC
 * (on the process's one broker connection), then HTTP. A failed start closes what it opened.
 */
export async function startService(opts: StartServiceOptions): Promise<INestApplication> {
  // forceCloseConnections: app.close() ends the connections still open, as GracefulStop.stop does
  // before it. Without it a keep-alive connection whose request ends after close() began stays
  // open until its keepAliveTimeout (HTTP_KEEP_ALIVE_TIMEOUT_MS: 65 s on the public ports), and the
  // close with it.
  const app = await NestFactory.create(opts.module, { bufferLogs: true, abortOnError: false, bodyParser: opts.bodyParser ?? true, forceCloseConnections: true });
  try {
    app.useLogger(app.get(PinoNestLogger));
    app.flushLogs();
    const stop = new GracefulStop({ drainMs: opts.config.SHUTDOWN_DRAIN_MS, timeoutMs: opts.config.SHUTDOWN_TIMEOUT_MS }).attach(app);
    const metrics = app.get(PlatformMetrics);
    // Before any edge middleware: every request is timed (and traced), whoever answers it.
    app.use(httpObserver(opts.name, metrics));
    app.use(stop.track());
    // In front of every route and fallback: the operator paths answer only on the operator port.
    if (opts.opsPort !== undefined) app.use(OperatorPort.gate());
    await opts.configure?.(app);
    await app.init();
    const port = app.get<ServicePort>(SERVICE_PORT);
    if (port.answers.length > 0) {
      const queue = rpcQueueName({ exchange: opts.config.EVENTS_EXCHANGE, queuePrefix: opts.config.QUEUE_PREFIX }, opts.name);
      const access = { answers: port.answers, adminAuthority: app.get(AdminAuthority) };
      const rpcServer = new AmqpRpcServer(app.get(AmqpConnection), queue, { service: opts.name, metrics }, access);
      stop.answering(rpcServer);
      app.connectMicroservice({ strategy: rpcServer }, { inheritAppConfig: true });
      await app.startAllMicroservices();
    }
    if (opts.opsPort !== undefined) await OperatorPort.listen(app, opts.opsPort);
    await app.listen(opts.port);
    if (opts.shutdownHooks) {
      stop.listen(app);
      stopWhenLauncherDies();
    }
    return app;
  } catch (err) {
    await app.close().catch(() => undefined);
    throw err;
  }
}

/**
 * A process started with an IPC channel (scripts/start-all.mjs gives each service one) stops as on
 * SIGTERM when the channel closes: its launcher has died, even by SIGKILL, which it cannot catch
 * to stop the services itself. Linux's parent-death signal is not reachable from Node; a pipe's
 * end-of-file is, and the channel is that pipe. Unreferenced: the channel alone keeps no process up.
 */
function stopWhenLauncherDies(): void {
  if (!process.channel) return;
  process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
  process.channel.unref();
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
  name: ServiceName;
  configSchema: S;
  module: (config: z.infer<S>) => DynamicModule;
  /** The HTTP port from the configuration (default: HEALTH_PORT, else the service's DEFAULT_HTTP_PORTS). */
  httpPort?: (config: z.infer<S>) => number;
  /** The operator port (OperatorPort), for a process whose HTTP port is public. */
  opsPort?: (config: z.infer<S>) => number;
  /** Edge middleware (the gateway). */
  configure?: (app: INestApplication, config: z.infer<S>) => void | Promise<void>;
  bodyParser?: boolean;
}

/**
 * The start function of a service (and the gateway): configuration is read from the given
 * environment (process.env in main.ts, a test namespace in tests), then the app boots.
 */
export function serviceStarter<S extends z.ZodObject>(def: ServiceDefinition<S>) {
  return (env: Env, opts: Pick<StartServiceOptions, 'shutdownHooks'> = {}): Promise<INestApplication> => {
    const config = loadConfig(def.configSchema, env) as z.infer<S> & PlatformConfig;
    const broker = brokerCredentialProblem(config);
    if (broker) throw new ConfigError([broker]);
    // Traces are exported when an OTLP endpoint is configured; otherwise nothing is started.
    startTracing({ service: def.name, env });
    return startService({
      name: def.name,
      module: def.module(config),
      config,
      port: def.httpPort ? def.httpPort(config) : (config.HEALTH_PORT ?? DEFAULT_HTTP_PORTS[def.name]),
      opsPort: def.opsPort?.(config),
      bodyParser: def.bodyParser,
      configure: def.configure ? (app) => def.configure!(app, config) : undefined,
      ...opts,
    });
  };
}
