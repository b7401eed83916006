import { Logger } from '@nestjs/common';
import amqp, { AmqpConnectionManager } from 'amqp-connection-manager';
import type { Channel } from 'amqplib';
import type { VerifiedTls } from '../config/backing-services';

/**
 * The one broker connection of a process (amqp-connection-manager, reconnecting by itself).
 * Everything on the broker uses a channel of it: the outbox relay, the event consumer, the RPC
 * server and the RPC client. Each channel's `setup` re-runs on every reconnection.
 */
export class AmqpConnection {
  private readonly log = new Logger('AmqpConnection');
  readonly manager: AmqpConnectionManager;
  private closing = false;

  /** `tls`: the verified TLS settings of an `amqps://` URL (amqpSocketOptions, config/backing-services.ts). */
  constructor(url: string, name: string, tls?: VerifiedTls) {
    this.manager = amqp.connect([url], {
      heartbeatIntervalInSeconds: 10,
      reconnectTimeInSeconds: 1,
      connectionOptions: { ...tls, clientProperties: { connection_name: name } },
    });
    this.manager.on('connect', () => this.log.log('connected to RabbitMQ'));
    this.manager.on('disconnect', ({ err }) => {
      if (!this.closing) this.log.warn(`disconnected from RabbitMQ: ${err?.message ?? 'closed'}; reconnecting`);
    });
    this.manager.on('connectFailed', ({ err }) => this.log.warn(`cannot reach RabbitMQ: ${err?.message ?? 'unknown error'}; retrying`));
  }

  isConnected(): boolean {
    return this.manager.isConnected();
  }

  /**
   * Call from a channel's `setup`. A channel the broker closes with an error (the connection
   * staying up) would otherwise stay closed until the next reconnection, and its unhandled
   * 'error' event would end the process: log it and reconnect, which sets every channel up again.
   */
  watch(ch: Channel, what: string): void {
    ch.on('error', (err: Error) => {
      if (this.closing) return;
      this.log.error(`the broker closed the ${what} channel: ${err.message}; reconnecting`);
      if (this.manager.isConnected()) this.manager.reconnect();
    });
  }

  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    await this.manager.close();
  }
}
