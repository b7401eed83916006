import { Logger } from '@nestjs/common';
import type { ChannelWrapper } from 'amqp-connection-manager';
import type { ConfirmChannel, ConsumeMessage } from 'amqplib';
import { DataSource } from 'typeorm';
import { AmqpConnection } from './amqp-connection';
import { OutboxWaker } from './unit-of-work';

export interface OutboxRelayOptions {
  exchange: string;
  pollMs: number;
  /** Published rows are deleted after this long: some events carry a code or a link in clear. */
  retentionHours?: number;
  batchSize?: number;
  publishTimeoutMs?: number;
}

interface OutboxRow {
  id: string;
  routing_key: string;
  envelope: { id: string; type: string; correlationId: string };
  attempts: number;
}

/** Longest wait before a returned (unroutable) event is tried again. */
const MAX_BACKOFF_SECONDS = 3600;
const PRUNE_EVERY_MS = 10 * 60 * 1000;

/**
 * Publishes outbox rows with publisher confirms and marks them only after the broker's ack.
 * Rows are claimed with FOR UPDATE SKIP LOCKED, so several replicas can relay side by side.
 * A crash between publish and mark republishes the event; consumers' inboxes absorb that.
 */
export class OutboxRelay implements OutboxWaker {
  private readonly log = new Logger('OutboxRelay');
  private readonly channel: ChannelWrapper;
  private readonly returned = new Set<string>();
  private timer?: NodeJS.Timeout;
  private pruneTimer?: NodeJS.Timeout;
  private draining?: Promise<void>;
  private again = false;
  private stopped = true;

  constructor(
    private readonly dataSource: DataSource,
    private readonly connection: AmqpConnection,
    private readonly opts: OutboxRelayOptions,
  ) {
    this.channel = connection.manager.createChannel({
      confirm: true,
      json: false,
      publishTimeout: opts.publishTimeoutMs ?? 10_000,
      setup: async (ch: ConfirmChannel) => {
        await ch.assertExchange(opts.exchange, 'topic', { durable: true });
        ch.on('return', (msg: ConsumeMessage) => {
          if (msg.properties.messageId) this.returned.add(msg.properties.messageId);
        });
      },
    });
  }

  start(): void {
    this.stopped = false;
    this.timer = setInterval(() => this.wake(), this.opts.pollMs);
    this.pruneTimer = setInterval(() => void this.prune(), PRUNE_EVERY_MS);
    this.wake();
  }

  /** Deletes published rows older than the retention; unpublished ones are never touched. */
  async prune(): Promise<number> {
    try {
      const [, deleted] = await this.dataSource.query(
        `DELETE FROM outbox_events WHERE published_at IS NOT NULL AND published_at < now() - make_interval(hours => $1)`,
        [this.opts.retentionHours ?? 24],
      );
      return Number(deleted ?? 0);
    } catch (err) {
      this.log.warn(`outbox prune failed: ${(err as Error).message}`);
      return 0;
    }
  }

  /** Asks for a drain soon; calls while one runs coalesce into one more pass. */
  wake(): void {
    if (this.stopped) return;
    if (this.draining) {
      this.again = true;
      return;
    }
    this.draining = this.drainLoop().finally(() => {
      this.draining = undefined;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
  }

  /** Publishes everything due now; resolves when the outbox has nothing left to send. */
  async drain(): Promise<void> {
    while ((await this.publishBatch()) > 0) {
      /* keep going */
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    if (this.pruneTimer) clearInterval(this.pruneTimer);
    await this.draining;
    await this.channel.close();
  }

  private async drainLoop(): Promise<void> {
    try {
      await this.drain();
    } catch (err) {
      this.log.warn(`outbox relay pass failed, will retry: ${(err as Error).message}`);
    }
  }

  private async publishBatch(): Promise<number> {
    // While the broker is unreachable, rows simply wait in the outbox; the poll retries.
    if (!this.connection.isConnected()) return 0;
    return this.dataSource.transaction(async (m) => {
      const rows: OutboxRow[] = await m.query(
        `SELECT id, routing_key, envelope, attempts FROM outbox_events
          WHERE published_at IS NULL AND available_at <= now()
          ORDER BY seq LIMIT $1 FOR UPDATE SKIP LOCKED`,
        [this.opts.batchSize ?? 100],
      );
      if (rows.length === 0) return 0;
      await Promise.all(
        rows.map((row) =>
          this.channel.publish(this.opts.exchange, row.routing_key, Buffer.from(JSON.stringify(row.envelope)), {
            persistent: true,
            mandatory: true,
            contentType: 'application/json',
            messageId: row.id,
            type: row.envelope.type,
            correlationId: row.envelope.correlationId,
            timestamp: Math.floor(Date.now() / 1000),
          }),
        ),
      );
      const unroutable = rows.filter((r) => this.returned.delete(r.id)).map((r) => r.id);
      const published = rows.filter((r) => !unroutable.includes(r.id)).map((r) => r.id);
      if (published.length > 0) {
        await m.query('UPDATE outbox_events SET published_at = now(), attempts = attempts + 1 WHERE id = ANY($1)', [published]);
      }
      if (unroutable.length > 0) {
        // No queue is bound for these yet (a consumer that never started): keep them and back off.
        this.log.warn(`${unroutable.length} event(s) had no queue bound; they stay in the outbox and are retried`);
        await m.query(
          `UPDATE outbox_events SET attempts = attempts + 1, last_error = 'unroutable: no queue bound',
                  available_at = now() + make_interval(secs => LEAST(power(2, attempts), $2)) WHERE id = ANY($1)`,
          [unroutable, MAX_BACKOFF_SECONDS],
        );
      }
      return published.length;
    });
  }
}
