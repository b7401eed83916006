import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import type { Tracer } from '@opentelemetry/api';
import type { ChannelWrapper } from 'amqp-connection-manager';
import type { Channel, ConsumeMessage } from 'amqplib';
import type { RpcDefinition, RpcRequest, RpcResponse } from '@esim/contracts';
import { RequestContext } from '../context/request-context';
import { AppError } from '../errors/app-error';
import { secondsSince } from '../observability/metrics';
import { PlatformMetrics } from '../observability/platform-metrics';
import { inSpan, isServerError, serviceTracer, SpanKind, traceHeaders, tracingEnabled } from '../observability/tracing';
import { AmqpConnection } from './amqp-connection';
import type { RpcReplyPacket, RpcRequestPacket } from './rpc-server';
import { MessagingNames, rpcQueueName } from './topology';

export interface RpcClientOptions extends MessagingNames {
  timeoutMs: number;
  /** The process's broker connection (services and the gateway) … */
  connection?: AmqpConnection;
  /** … or a URL, for a test that calls a service from outside: the client then owns its connection. */
  url?: string;
  /** Times each call (rpc_client_duration_seconds). */
  metrics?: PlatformMetrics;
  /** The calling service: names its client spans when tracing is on. */
  service?: string;
}

/** RabbitMQ's direct reply-to: replies come straight back on the channel that sent the request. */
const REPLY_TO = 'amq.rabbitmq.reply-to';

interface Pending {
  pattern: string;
  resolve(reply: RpcReplyPacket): void;
  reject(err: AppError): void;
}

/**
 * Request/reply to other services, always with a timeout, on a channel of the process's one
 * broker connection. Errors come back as AppError; a silent or unreachable service becomes a 503
 * the user can retry. A request expires in its queue when its caller stops waiting, so a service
 * that comes back never runs requests nobody waits for.
 */
export class RpcClient {
  private readonly log = new Logger('RpcClient');
  private readonly connection: AmqpConnection;
  private readonly ownsConnection: boolean;
  private channel?: ChannelWrapper;
  private readonly pending = new Map<string, Pending>();
  private readonly tracer: Tracer;

  constructor(private readonly opts: RpcClientOptions) {
    this.tracer = serviceTracer(opts.service ?? 'rpc-client');
    if (opts.connection) {
      this.connection = opts.connection;
      this.ownsConnection = false;
    } else if (opts.url) {
      this.connection = new AmqpConnection(opts.url, 'rpc-client');
      this.ownsConnection = true;
    } else {
      throw new Error('RpcClient needs a connection or a url');
    }
    // Replies to requests sent before a drop went to a reply queue that no longer exists.
    this.connection.manager.on('disconnect', () => this.failPending('rpc_connection_lost'));
  }

  async call<D extends RpcDefinition>(def: D, data: RpcRequest<D>, opts: { timeoutMs?: number } = {}): Promise<RpcResponse<D>> {
    const started = process.hrtime.bigint();
    const span = tracingEnabled()
      ? { kind: SpanKind.CLIENT, attributes: { 'rpc.system': 'rabbitmq', 'rpc.method': def.pattern, correlation_id: RequestContext.current()?.correlationId }, isFailure: isServerError }
      : undefined;
    try {
      const response = await inSpan(this.tracer, def.pattern, span, () => this.send(def, data, opts));
      this.opts.metrics?.rpcClient.observe({ pattern: def.pattern, outcome: 'ok' }, secondsSince(started));
      return response;
    } catch (err) {
      this.opts.metrics?.rpcClient.observe({ pattern: def.pattern, outcome: PlatformMetrics.outcome(err) }, secondsSince(started));
      throw err;
    }
  }

  private async send<D extends RpcDefinition>(def: D, data: RpcRequest<D>, opts: { timeoutMs?: number }): Promise<RpcResponse<D>> {
    const ctx = RequestContext.current();
    const message = { meta: { correlationId: ctx?.correlationId ?? RequestContext.correlationId(), userId: ctx?.userId }, data };
    const timeoutMs = opts.timeoutMs ?? this.opts.timeoutMs;
    const reply = await this.request(def, { pattern: def.pattern, data: message }, timeoutMs);
    if (reply.err !== undefined) {
      if (AppError.isShape(reply.err)) throw AppError.fromShape(reply.err);
      this.log.error(`${def.pattern} failed: ${JSON.stringify(reply.err)}`);
      throw unavailable('rpc_failed');
    }
    return def.response.parse(reply.response) as RpcResponse<D>;
  }

  async close(): Promise<void> {
    this.failPending('rpc_client_closed');
    await this.channel?.close().catch(() => undefined);
    this.channel = undefined;
    if (this.ownsConnection) await this.connection.close();
  }

  private request(def: RpcDefinition, packet: RpcRequestPacket, timeoutMs: number): Promise<RpcReplyPacket> {
    const id = randomUUID();
    const channel = this.replyChannel();
    return new Promise<RpcReplyPacket>((resolve, reject) => {
      const timer = setTimeout(() => {
        if (!this.pending.delete(id)) return;
        this.log.error(`${def.pattern} timed out`);
        reject(new AppError('rpc_timeout', 'The service is taking too long to answer. Please try again in a moment.'));
      }, timeoutMs);
      const settle = <T>(fn: (v: T) => void) => (v: T) => {
        clearTimeout(timer);
        this.pending.delete(id);
        fn(v);
      };
      this.pending.set(id, { pattern: def.pattern, resolve: settle(resolve), reject: settle(reject) });
      // While the broker is unreachable the wrapper holds the request and sends it on reconnection;
      // the expiration drops it from the service's queue once this caller has given up.
      channel
        .sendToQueue(rpcQueueName(this.opts, def.service), Buffer.from(JSON.stringify(packet)), {
          replyTo: REPLY_TO,
          correlationId: id,
          contentType: 'application/json',
          expiration: String(timeoutMs),
          mandatory: true,
          // The caller's trace continues in the service that answers (none when tracing is off).
          headers: traceHeaders(),
        })
        .catch((err: Error) => {
          const p = this.pending.get(id);
          if (!p) return;
          this.log.error(`${def.pattern} could not be sent: ${err.message}`);
          p.reject(unavailable('rpc_failed'));
        });
    });
  }

  private replyChannel(): ChannelWrapper {
    if (this.channel) return this.channel;
    this.channel = this.connection.manager.createChannel({
      name: 'rpc-client',
      json: false,
      setup: async (ch: Channel) => {
        this.connection.watch(ch, 'RPC client');
        // Returned: no queue of that name, the service never started. Answer now rather than time out.
        ch.on('return', (msg: ConsumeMessage) => {
          const p = this.pending.get(msg.properties.correlationId as string);
          if (!p) return;
          this.log.error(`${p.pattern}: no service listens on ${msg.fields.routingKey}`);
          p.reject(unavailable('rpc_unroutable'));
        });
        await ch.consume(REPLY_TO, (msg) => msg && this.onReply(msg), { noAck: true });
      },
    });
    this.channel.on('error', (err: Error) => this.log.error(`RPC client channel: ${err.message}`));
    return this.channel;
  }

  private onReply(msg: ConsumeMessage): void {
    const p = this.pending.get(msg.properties.correlationId as string);
    if (!p) return; // a late answer to a request that already timed out
    try {
      p.resolve(JSON.parse(msg.content.toString('utf8')) as RpcReplyPacket);
    } catch {
      p.reject(unavailable('rpc_failed'));
    }
  }

  private failPending(reason: RpcFailure): void {
    for (const p of [...this.pending.values()]) p.reject(unavailable(reason));
  }
}

type RpcFailure = 'rpc_failed' | 'rpc_unroutable' | 'rpc_connection_lost' | 'rpc_client_closed';
const unavailable = (reason: RpcFailure) => new AppError(reason, 'The service is temporarily unavailable. Please try again in a moment.');
