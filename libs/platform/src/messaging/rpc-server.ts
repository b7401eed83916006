import { Logger } from '@nestjs/common';
import type { Tracer } from '@opentelemetry/api';
import { BaseRpcContext, CustomTransportStrategy, Server } from '@nestjs/microservices';
import type { ChannelWrapper } from 'amqp-connection-manager';
import type { Channel, ConsumeMessage } from 'amqplib';
import { lastValueFrom } from 'rxjs';
import { rpcMetaSchema, type RpcDefinition } from '@esim/contracts';
import { AppError } from '../errors/app-error';
import { secondsSince } from '../observability/metrics';
import { PlatformMetrics } from '../observability/platform-metrics';
import { contextFrom, failed, inSpan, isServerError, serviceTracer, SpanKind, tracingEnabled } from '../observability/tracing';
import { AdminAuthority, requireAdminCaller } from './admin-authority';
import { AmqpConnection } from './amqp-connection';

/** One RPC request on the wire: the definition's pattern and `{ meta, data }` (see RpcClient). */
export interface RpcRequestPacket {
  pattern: string;
  data: unknown;
}
/** The answer sent to the caller's reply-to: a response, or an AppError shape. */
export interface RpcReplyPacket {
  response?: unknown;
  err?: unknown;
}

/** Requests the broker hands this replica ahead of the ones it is answering (see AmqpRpcServer). */
export const RPC_PREFETCH = 16;

/** The arguments of an RPC queue: a quorum queue, replicated over the broker's nodes. */
export const RPC_QUEUE_ARGUMENTS = { 'x-queue-type': 'quorum' } as const;

/**
 * Answers the service's @RpcHandler methods from its `<service>.rpc` queue, on a channel of the
 * process's one broker connection (a Nest custom transport; Nest's RMQ transport would open a
 * connection of its own).
 *
 * The queue is a quorum queue: it lives on a majority of the broker's nodes, so losing the node
 * that led it elects another leader instead of taking every call to the service down with it. RPC
 * stays at most once (docs/architecture.md, "RPC"): a request is acknowledged when this replica
 * takes it, before its handler runs, so a request is never run twice; one this replica was handed
 * but had not taken when it died (at most RPC_PREFETCH) is not acknowledged and goes to another
 * replica, never having started. One whose handler was running dies with it: its caller gets a
 * timeout, and the user retries.
 */
export class AmqpRpcServer extends Server implements CustomTransportStrategy {
  private readonly log = new Logger('RpcServer');
  private channel?: ChannelWrapper;
  private readonly inFlight = new Set<Promise<void>>();
  private current?: { ch: Channel; consumerTag: string };
  private readonly tracer: Tracer;
  /** The patterns of the answered RPCs declared `admin: true` in their contract. */
  private readonly adminPatterns: ReadonlySet<string>;

  constructor(
    private readonly connection: AmqpConnection,
    private readonly queue: string,
    private readonly observe: { service?: string; metrics?: PlatformMetrics } = {},
    private readonly access: { answers?: readonly RpcDefinition[]; adminAuthority?: AdminAuthority } = {},
  ) {
    super();
    this.tracer = serviceTracer(observe.service ?? queue);
    this.adminPatterns = new Set((access.answers ?? []).filter((d) => d.admin).map((d) => d.pattern));
  }

  listen(callback: (err?: unknown) => void): void {
    this.channel = this.connection.manager.createChannel({
      name: `${this.queue}-server`,
      json: false,
      setup: async (ch: Channel) => {
        this.connection.watch(ch, this.queue);
        await ch.assertQueue(this.queue, { durable: true, arguments: await this.queueArguments() });
        await ch.prefetch(RPC_PREFETCH);
        const { consumerTag } = await ch.consume(
          this.queue,
          (msg) => {
            if (!msg) return;
            // Taken: acknowledged before the handler runs, so that no crash can have it run twice.
            ch.ack(msg);
            this.track(this.answer(ch, msg));
          },
          { noAck: false },
        );
        this.current = { ch, consumerTag };
      },
    });
    this.channel.on('error', (err: Error) => this.log.error(`RPC channel of ${this.queue}: ${err.message}`));
    this.channel.waitForConnect().then(
      () => callback(),
      (err: unknown) => callback(err),
    );
  }

  /**
   * Quorum, unless the broker holds the queue from an earlier release as a classic queue: a
   * declaration with other arguments would close the channel (PRECONDITION_FAILED), so it is tried
   * on a channel of its own first, and the classic queue is used as it is until an operator
   * replaces it (docs/operations.md, "RPC queues").
   */
  private async queueArguments(): Promise<Record<string, unknown>> {
    const model = this.connection.manager.connection;
    if (!model) return { ...RPC_QUEUE_ARGUMENTS };
    const probe = await model.createChannel();
    probe.on('error', () => undefined);
    try {
      await probe.assertQueue(this.queue, { durable: true, arguments: { ...RPC_QUEUE_ARGUMENTS } });
      await probe.close().catch(() => undefined);
      return { ...RPC_QUEUE_ARGUMENTS };
    } catch (err) {
      if ((err as { code?: number }).code !== 406) throw err;
      this.log.warn(`${this.queue} is a classic queue from an earlier release: answering from it as it is; replace it by a quorum queue (docs/operations.md, "RPC queues")`);
      return {};
    }
  }

  /** Stops taking requests, lets the ones in hand answer, then closes the channel. */
  async close(): Promise<void> {
    if (!this.channel) return;
    const current = this.current;
    if (current) await current.ch.cancel(current.consumerTag).catch(() => undefined);
    await Promise.allSettled([...this.inFlight]);
    await this.channel.close().catch(() => undefined);
    this.channel = undefined;
  }

  on(): never {
    throw new Error('AmqpRpcServer has no events to listen to');
  }

  unwrap<T>(): T {
    return this.channel as T;
  }

  private track(p: Promise<void>): void {
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p));
  }

  private async answer(ch: Channel, msg: ConsumeMessage): Promise<void> {
    const started = process.hrtime.bigint();
    // The caller's trace continues here (RpcClient sends its context as headers).
    const span = tracingEnabled() ? { kind: SpanKind.SERVER, parent: contextFrom(msg.properties.headers), attributes: { 'rpc.system': 'rabbitmq' } } : undefined;
    const { reply, pattern } = await inSpan(this.tracer, 'rpc', span, async (traced) => {
      const answered = await this.run(msg);
      traced?.updateName(answered.pattern);
      traced?.setAttribute('rpc.method', answered.pattern);
      if (answered.reply.err !== undefined && isServerError(answered.reply.err)) failed(traced, answered.reply.err);
      return answered;
    });
    this.observe.metrics?.rpcServer.observe({ pattern, outcome: PlatformMetrics.outcome(reply.err) }, secondsSince(started));
    const { replyTo, correlationId } = msg.properties;
    if (!replyTo) return;
    try {
      ch.sendToQueue(replyTo, Buffer.from(JSON.stringify(reply)), { correlationId, contentType: 'application/json' });
    } catch (err) {
      // The link dropped while the handler ran: the caller's reply queue went with it, and the caller times out.
      this.log.warn(`could not answer ${correlationId ?? 'a request'} on ${this.queue}: ${(err as Error).message}`);
    }
  }

  /** The answer, and the pattern it answers for the metrics (`unknown` for a request no handler takes). */
  private async run(msg: ConsumeMessage): Promise<{ reply: RpcReplyPacket; pattern: string }> {
    let packet: RpcRequestPacket;
    try {
      packet = JSON.parse(msg.content.toString('utf8')) as RpcRequestPacket;
    } catch {
      return { pattern: 'unknown', reply: { err: new AppError('invalid_json', 'The request could not be read.').toShape() } };
    }
    const handler = typeof packet?.pattern === 'string' ? this.getHandlerByPattern(packet.pattern) : null;
    if (!handler) {
      this.log.error(`no handler for ${String(packet?.pattern)} on ${this.queue}`);
      return { pattern: 'unknown', reply: { err: new AppError('no_rpc_handler', 'Something went wrong on our side. Please try again.').toShape() } };
    }
    if (this.adminPatterns.has(packet.pattern)) {
      // Checked here, before any handler code, whoever sent the request: the gateway's AdminGuard
      // is the first line, this is the service's own (docs/decisions.md, "Services check their caller").
      const meta = rpcMetaSchema.safeParse((packet.data as { meta?: unknown } | null)?.meta);
      try {
        await requireAdminCaller(this.access.adminAuthority, meta.success ? meta.data : undefined, packet.pattern);
      } catch (err) {
        const refusal = err instanceof AppError ? err : new AppError('admin_check_failed', 'The service is taking too long to answer. Please try again in a moment.');
        this.log.warn(`${packet.pattern} refused for acting user ${meta.success ? (meta.data.userId ?? 'none') : 'unreadable'}: ${refusal.code}${refusal.reason ? ` (${refusal.reason})` : ''}`);
        return { pattern: packet.pattern, reply: { err: refusal.toShape() } };
      }
    }
    try {
      // The handler is Nest's wrapped route: its exception filter turns an RpcException into an erroring observable.
      const result$ = this.transformToObservable(await handler(packet.data, new BaseRpcContext([packet.pattern])));
      return { pattern: packet.pattern, reply: { response: await lastValueFrom(result$, { defaultValue: undefined }) } };
    } catch (err) {
      if (AppError.isShape(err)) return { pattern: packet.pattern, reply: { err } };
      this.log.error(`${packet.pattern} failed: ${(err as Error)?.stack ?? String(err)}`);
      return { pattern: packet.pattern, reply: { err: new AppError('internal_error', 'Something went wrong on our side. Please try again.').toShape() } };
    }
  }
}
