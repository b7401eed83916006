import { Logger } from '@nestjs/common';
import { BaseRpcContext, CustomTransportStrategy, Server } from '@nestjs/microservices';
import type { ChannelWrapper } from 'amqp-connection-manager';
import type { Channel, ConsumeMessage } from 'amqplib';
import { lastValueFrom } from 'rxjs';
import { AppError } from '../errors/app-error';
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

/**
 * Answers the service's @RpcHandler methods from its `<service>.rpc` queue, on a channel of the
 * process's one broker connection (a Nest custom transport; Nest's RMQ transport would open a
 * connection of its own). Requests are taken with auto-ack: RPC is at most once, so a request
 * caught in a broker drop is never run twice; its caller times out and the user retries.
 */
export class AmqpRpcServer extends Server implements CustomTransportStrategy {
  private readonly log = new Logger('RpcServer');
  private channel?: ChannelWrapper;
  private readonly inFlight = new Set<Promise<void>>();
  private current?: { ch: Channel; consumerTag: string };

  constructor(
    private readonly connection: AmqpConnection,
    private readonly queue: string,
  ) {
    super();
  }

  listen(callback: (err?: unknown) => void): void {
    this.channel = this.connection.manager.createChannel({
      name: `${this.queue}-server`,
      json: false,
      setup: async (ch: Channel) => {
        this.connection.watch(ch, this.queue);
        await ch.assertQueue(this.queue, { durable: true });
        const { consumerTag } = await ch.consume(this.queue, (msg) => msg && this.track(this.answer(ch, msg)), { noAck: true });
        this.current = { ch, consumerTag };
      },
    });
    this.channel.on('error', (err: Error) => this.log.error(`RPC channel of ${this.queue}: ${err.message}`));
    this.channel.waitForConnect().then(
      () => callback(),
      (err: unknown) => callback(err),
    );
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
    const reply = await this.run(msg);
    const { replyTo, correlationId } = msg.properties;
    if (!replyTo) return;
    try {
      ch.sendToQueue(replyTo, Buffer.from(JSON.stringify(reply)), { correlationId, contentType: 'application/json' });
    } catch (err) {
      // The link dropped while the handler ran: the caller's reply queue went with it, and the caller times out.
      this.log.warn(`could not answer ${correlationId ?? 'a request'} on ${this.queue}: ${(err as Error).message}`);
    }
  }

  private async run(msg: ConsumeMessage): Promise<RpcReplyPacket> {
    let packet: RpcRequestPacket;
    try {
      packet = JSON.parse(msg.content.toString('utf8')) as RpcRequestPacket;
    } catch {
      return { err: new AppError('validation', 'The request could not be read.').toShape() };
    }
    const handler = typeof packet?.pattern === 'string' ? this.getHandlerByPattern(packet.pattern) : null;
    if (!handler) {
      this.log.error(`no handler for ${String(packet?.pattern)} on ${this.queue}`);
      return { err: new AppError('internal', 'Something went wrong on our side. Please try again.', { reason: 'no_rpc_handler' }).toShape() };
    }
    try {
      // The handler is Nest's wrapped route: its exception filter turns an RpcException into an erroring observable.
      const result$ = this.transformToObservable(await handler(packet.data, new BaseRpcContext([packet.pattern])));
      return { response: await lastValueFrom(result$, { defaultValue: undefined }) };
    } catch (err) {
      if (AppError.isShape(err)) return { err };
      this.log.error(`${packet.pattern} failed: ${(err as Error)?.stack ?? String(err)}`);
      return { err: new AppError('internal', 'Something went wrong on our side. Please try again.').toShape() };
    }
  }
}
