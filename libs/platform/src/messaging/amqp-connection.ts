import { Logger } from '@nestjs/common';
import amqp, { AmqpConnectionManager } from 'amqp-connection-manager';

/**
 * One broker connection per process for integration events, reconnecting by itself
 * (amqp-connection-manager). The Nest RMQ transport keeps its own connection for RPC.
 */
export class AmqpConnection {
  private readonly log = new Logger('AmqpConnection');
  readonly manager: AmqpConnectionManager;

  constructor(url: string, name: string) {
    this.manager = amqp.connect([url], {
      heartbeatIntervalInSeconds: 10,
      reconnectTimeInSeconds: 1,
      connectionOptions: { clientProperties: { connection_name: name } },
    });
    this.manager.on('connect', () => this.log.log('connected to RabbitMQ'));
    this.manager.on('disconnect', ({ err }) => this.log.warn(`disconnected from RabbitMQ: ${err?.message ?? 'closed'}`));
  }

  isConnected(): boolean {
    return this.manager.isConnected();
  }

  async close(): Promise<void> {
    await this.manager.close();
  }
}
