import type { Server } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { Logger, type INestApplication } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { Draining } from '../health/draining';
import type { AmqpRpcServer } from '../messaging/rpc-server';

export interface GracefulStopOptions {
  /** SHUTDOWN_DRAIN_MS: how long the process keeps serving with its readiness failing. */
  drainMs: number;
  /** SHUTDOWN_TIMEOUT_MS: how long requests in hand may take to finish once the listener is closed. */
  timeoutMs: number;
}

/**
 * A stop that drops nothing. On SIGTERM (SIGINT), in this order:
 * 1. readiness answers 503 `draining` (Draining), and the RPC server stops taking requests (the
 *    other replicas share its queue) while it answers those in hand;
 * 2. for SHUTDOWN_DRAIN_MS the process keeps serving HTTP: the balancer in front learns from
 *    readiness (Kubernetes: the endpoints, after the pod's preStop) that it must send no more;
 * 3. the listeners close, and the requests in hand finish (at most SHUTDOWN_TIMEOUT_MS; an event
 *    stream, which never finishes, is closed by its own module when the app closes);
 * 4. the app closes: consumers stop and finish what they hold, the relay, broker and pools close
 *    (PlatformLifecycle, service-platform.module.ts); then the process exits 0.
 * Nest's own shutdown hooks close at once, so they are not installed (start-service.ts).
 */
export class GracefulStop {
  private static readonly OF = new WeakMap<INestApplication, GracefulStop>();

  /** The stop of an app startService made (tests drive it without a signal). */
  static of(app: INestApplication): GracefulStop | undefined {
    return GracefulStop.OF.get(app);
  }

  /** Ties this stop to `app` (startService). */
  attach(app: INestApplication): this {
    GracefulStop.OF.set(app, this);
    return this;
  }

  private readonly log = new Logger('Shutdown');
  private readonly inFlight = new Set<Response>();
  private settled?: () => void;
  private stopping?: Promise<void>;
  private draining = false;

  private rpcServer?: AmqpRpcServer;

  constructor(private readonly opts: GracefulStopOptions) {}

  /** The RPC server, when the process answers RPCs: on a stop it takes no more requests at once. */
  answering(rpcServer: AmqpRpcServer): void {
    this.rpcServer = rpcServer;
  }

  /** Express middleware counting the requests in hand (event streams excepted). */
  track() {
    return (req: Request, res: Response, next: NextFunction): void => {
      // A keep-alive connection would carry the client's next requests here past the drain (a
      // balancer picks a replica per connection): closed after this answer, they go elsewhere.
      if (this.draining) res.setHeader('Connection', 'close');
      if (!String(req.headers.accept ?? '').includes('text/event-stream')) {
        this.inFlight.add(res);
        res.once('close', () => {
          this.inFlight.delete(res);
          if (this.inFlight.size === 0) this.settled?.();
        });
      }
      next();
    };
  }

  /** Installs the signal handlers; the process exits once the app has closed. */
  listen(app: INestApplication): void {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      process.on(signal, () => {
        this.stopping ??= this.stop(app, signal).then(
          () => process.exit(0),
          (err: unknown) => {
            this.log.error(`stopping failed: ${(err as Error)?.stack ?? String(err)}`);
            process.exit(1);
          },
        );
      });
    }
  }

  /** Steps 1 to 4 above, without exiting (tests call it on an app of their own). */
  async stop(app: INestApplication, signal: string): Promise<void> {
    const started = Date.now();
    this.draining = true;
    app.get(Draining).begin();
    this.log.log(`${signal}: draining, readiness fails; serving ${this.opts.drainMs} ms more`);
    const rpcStopped = this.rpcServer?.close();
    await sleep(this.opts.drainMs);
    // Closes the operator listener with it (OperatorPort.listen): the probes have their answer.
    const server = app.getHttpServer() as Server;
    server.close();
    server.closeIdleConnections();
    if (this.inFlight.size > 0) {
      const finished = new Promise<void>((resolve) => (this.settled = resolve));
      const timedOut = await Promise.race([finished.then(() => false), sleep(this.opts.timeoutMs, undefined, { ref: false }).then(() => true)]);
      if (timedOut) this.log.warn(`${this.inFlight.size} request(s) still unanswered after ${this.opts.timeoutMs} ms (SHUTDOWN_TIMEOUT_MS): closing them`);
    }
    // What is left open is idle or an event stream (whose page reconnects to another replica).
    server.closeAllConnections();
    await rpcStopped;
    await app.close();
    this.log.log(`stopped in ${Date.now() - started} ms`);
  }
}
