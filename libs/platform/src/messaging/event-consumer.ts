import { Logger } from '@nestjs/common';
import type { ChannelWrapper } from 'amqp-connection-manager';
import type { Channel, ConsumeMessage } from 'amqplib';
import { DataSource } from 'typeorm';
import { eventEnvelopeSchema, EventEnvelope } from '@esim/contracts';
import { RequestContext } from '../context/request-context';
import { AmqpConnection } from './amqp-connection';
import { EventHandler } from './event-handler';
import { MessagingNames, deadLetterQueueName, eventQueueName } from './topology';
import { OutboxWaker, Tx, writeOutbox } from './unit-of-work';

export interface EventConsumerOptions extends MessagingNames {
  /** Names the durable queue and the inbox rows: usually the service name. */
  consumer: string;
  deliveryLimit: number;
  prefetch?: number;
}

/**
 * Consumes the service's own quorum queue. Each delivery runs in one transaction with its inbox
 * row and is acked only after commit; a failure is nacked and redelivered until the queue's
 * delivery limit moves it to the dead-letter queue, where operators can see it.
 */
export class EventConsumer {
  private readonly log = new Logger('EventConsumer');
  private readonly handlers = new Map<string, EventHandler>();
  private channel?: ChannelWrapper;
  private readonly inFlight = new Set<Promise<void>>();
  private consumerTag?: string;

  constructor(
    private readonly dataSource: DataSource,
    private readonly connection: AmqpConnection,
    private readonly relay: OutboxWaker,
    private readonly opts: EventConsumerOptions,
    handlers: EventHandler[],
  ) {
    for (const h of handlers) this.handlers.set(h.event.routingKey, h);
  }

  get queue(): string {
    return eventQueueName(this.opts, this.opts.consumer);
  }

  get deadLetterQueue(): string {
    return deadLetterQueueName(this.opts, this.opts.consumer);
  }

  async start(): Promise<void> {
    if (this.handlers.size === 0) return;
    const queue = this.queue;
    const dlq = this.deadLetterQueue;
    this.channel = this.connection.manager.createChannel({
      json: false,
      setup: async (ch: Channel) => {
        await ch.assertExchange(this.opts.exchange, 'topic', { durable: true });
        await ch.assertQueue(dlq, { durable: true, arguments: { 'x-queue-type': 'quorum' } });
        await ch.assertQueue(queue, {
          durable: true,
          arguments: {
            'x-queue-type': 'quorum',
            'x-delivery-limit': this.opts.deliveryLimit,
            'x-dead-letter-exchange': '',
            'x-dead-letter-routing-key': dlq,
          },
        });
        for (const key of this.handlers.keys()) await ch.bindQueue(queue, this.opts.exchange, key);
        await ch.prefetch(this.opts.prefetch ?? 16);
        const { consumerTag } = await ch.consume(queue, (msg) => msg && this.track(this.onMessage(ch, msg)), { noAck: false });
        this.consumerTag = consumerTag;
      },
    });
    await this.channel.waitForConnect();
  }

  /** Stops taking deliveries, lets the ones in hand finish (and ack), then closes. */
  async stop(): Promise<void> {
    if (!this.channel) return;
    const tag = this.consumerTag;
    if (tag) await this.channel.cancel(tag).catch(() => undefined);
    await Promise.allSettled([...this.inFlight]);
    await this.channel.close();
  }

  private track(p: Promise<void>): void {
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p));
  }

  private async onMessage(ch: Channel, msg: ConsumeMessage): Promise<void> {
    let envelope: EventEnvelope;
    try {
      envelope = eventEnvelopeSchema.parse(JSON.parse(msg.content.toString('utf8'))) as EventEnvelope;
    } catch (err) {
      this.log.error(`unreadable message on ${this.queue}, dead-lettering it: ${(err as Error).message}`);
      ch.nack(msg, false, false);
      return;
    }
    const handler = this.handlers.get(envelope.type);
    if (!handler) {
      this.log.warn(`no handler for ${envelope.type} on ${this.queue}; acknowledging`);
      ch.ack(msg);
      return;
    }
    await RequestContext.run({ correlationId: envelope.correlationId, causationId: envelope.id }, async () => {
      try {
        const applied = await this.apply(handler, envelope);
        ch.ack(msg);
        if (applied) this.log.log(`applied ${envelope.type} ${envelope.id}`);
        else this.log.log(`skipped ${envelope.type} ${envelope.id}: already applied`);
      } catch (err) {
        // The quorum queue counts returns; past the limit it moves the message to the DLQ.
        const returns = Number(msg.properties.headers?.['x-delivery-count'] ?? 0);
        const fate = returns >= this.opts.deliveryLimit ? 'going to the dead-letter queue' : `retry ${returns + 1} of ${this.opts.deliveryLimit}`;
        this.log.error(`handling ${envelope.type} ${envelope.id} failed, ${fate}: ${(err as Error).message}`);
        ch.nack(msg, false, true);
      }
    });
  }

  /** Returns false when the inbox shows the event was applied before. */
  private async apply(handler: EventHandler, envelope: EventEnvelope): Promise<boolean> {
    const payload = handler.event.schema.parse(envelope.payload);
    let staged = 0;
    const applied = await this.dataSource.transaction(async (manager) => {
      const inserted: unknown[] = await manager.query(
        `INSERT INTO inbox_events (consumer, event_id, event_type) VALUES ($1, $2, $3)
         ON CONFLICT DO NOTHING RETURNING event_id`,
        [this.opts.consumer, envelope.id, envelope.type],
      );
      if (inserted.length === 0) return false;
      const tx = new Tx(manager);
      await handler.handle(payload, tx, envelope);
      await writeOutbox(manager, tx.staged);
      staged = tx.staged.length;
      return true;
    });
    if (staged > 0) this.relay.wake();
    return applied;
  }
}
