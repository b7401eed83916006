import type { Channel } from 'amqplib';
import type { AmqpConnection } from '../messaging/amqp-connection';

/**
 * Reads queue depths (checkQueue) for the metrics, on a channel of its own of the process's one
 * connection. The broker closes a channel whose checkQueue names a missing queue: that must not
 * be the consumer's or the relay's channel, so this one is plain (not set up again on reconnection),
 * opened when first needed and dropped whenever it closes.
 */
export class QueueInspector {
  private channel?: Promise<Channel>;

  constructor(private readonly connection: AmqpConnection) {}

  /** Messages ready in the queue, or undefined when it cannot be read now (broker down, queue missing). */
  async depth(queue: string): Promise<number | undefined> {
    try {
      const ch = await this.open();
      if (!ch) return undefined;
      const { messageCount } = await ch.checkQueue(queue);
      return messageCount;
    } catch {
      return undefined;
    }
  }

  async close(): Promise<void> {
    const ch = await this.channel?.catch(() => undefined);
    this.channel = undefined;
    await ch?.close().catch(() => undefined);
  }

  private open(): Promise<Channel> | undefined {
    if (this.channel) return this.channel;
    const model = this.connection.manager.connection;
    if (!model || !this.connection.isConnected()) return undefined;
    const opening = model.createChannel().then((ch) => {
      const drop = () => {
        if (this.channel === opening) this.channel = undefined;
      };
      // A refused checkQueue closes the channel with an error: expected, never fatal.
      ch.on('error', drop);
      ch.on('close', drop);
      return ch;
    });
    opening.catch(() => {
      if (this.channel === opening) this.channel = undefined;
    });
    this.channel = opening;
    return opening;
  }
}
