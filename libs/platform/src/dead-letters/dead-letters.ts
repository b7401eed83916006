import { createHash } from 'node:crypto';
import { Logger } from '@nestjs/common';
import type { ConfirmChannel, GetMessage } from 'amqplib';
import { AmqpConnection } from '../messaging/amqp-connection';
import { EVENT_BATCH } from '../messaging/event-batch';
import { deadLetterQueueName, eventQueueName, MessagingNames } from '../messaging/topology';
import { DEAD_LETTER_HEADERS } from './dead-letter-headers';

/** One dead letter as an operator sees it. */
export interface DeadLetterView {
  /** The event id (what the consumer's inbox keys on); for an unreadable message, its broker id or a hash. */
  messageId: string;
  type: string | null;
  occurredAt: string | null;
  reason: string;
  error: string | null;
  deliveries: number | null;
  deadLetteredAt: string | null;
  payloadSummary: Record<string, string>;
}

export interface DeadLetterQueueView {
  queue: string;
  /** Messages in the queue now; `messages` holds the oldest of them. */
  count: number;
  messages: DeadLetterView[];
}

/** Messages looked at when searching a queue for one of them. */
const SCAN_LIMIT = 10_000;
/** Fields of a payload shown as [redacted]: personal data, secrets, activation codes. */
const REDACTED = /code|token|password|secret|hash|lpa|email|phone|msisdn|name|address|signature/i;
const IP_ADDRESS = /^ip$|Ip$|IP$/;
const MAX_FIELDS = 12;
const MAX_VALUE_LENGTH = 80;
/** How long a look waits for the messages it gave back to be counted in the queue again. */
const RETURN_WAIT_MS = 2000;

/**
 * Reads, replays and discards the messages of a consumer's dead-letter queue (`<consumer>.events.dlq`),
 * on a channel of the process's one broker connection.
 *
 * - Reading takes messages without acknowledging them and closes the channel, which gives them
 *   all back to the queue: nothing is lost by looking. The broker puts them back after the
 *   channel is closed, not before (a quorum queue applies the return as a command of its own), so
 *   each look waits until the queue counts them again before it answers: a replay right after a
 *   list found the queue empty, and replayed nothing (once in CI).
 * - Replaying sends a message to its consumer's own queue (the default exchange, not the topic
 *   exchange, so no other consumer sees the event again), waits for the broker's confirm, and
 *   only then removes it from the dead-letter queue. The event keeps its id, so the consumer's
 *   inbox applies it at most once however often it is replayed, and a crash between the two steps
 *   leaves a copy that replays harmlessly.
 * - Discarding acknowledges the message: it is gone.
 */
export class DeadLetters {
  private readonly log = new Logger('DeadLetters');

  constructor(
    private readonly connection: AmqpConnection,
    private readonly names: MessagingNames,
  ) {}

  queueOf(consumer: string): string {
    return deadLetterQueueName(this.names, consumer);
  }

  /**
   * The oldest `limit` events and the count; a consumer that never declared its queues has none.
   * A batch of events the broker dead-lettered whole (EVENT_BATCH, past the delivery limit) is
   * shown as its events, each with the batch's reason, and counts as that many: the count is the
   * broker's count of messages, plus the further events of the batches looked at.
   */
  async list(consumer: string, limit = 20): Promise<DeadLetterQueueView> {
    const queue = this.queueOf(consumer);
    let count = await this.count(queue);
    if (count === null) return { queue, count: 0, messages: [] };
    const messagesInQueue = count;
    const view = await this.withChannel(async (ch) => {
      const messages: DeadLetterView[] = [];
      for (let i = 0; i < messagesInQueue && messages.length < limit; i++) {
        const msg = await ch.get(queue, { noAck: false });
        if (!msg) break;
        const views = describeAll(msg);
        count! += views.length - 1;
        messages.push(...views.slice(0, limit - messages.length));
      }
      return { queue, count: count!, messages };
    });
    await this.returned(queue, messagesInQueue);
    return view;
  }

  /** Sends one message back to its consumer; 0 when it is not in the queue (any more). */
  replay(consumer: string, messageId: string): Promise<number> {
    return this.take(consumer, (id) => id === messageId, true, 1);
  }

  /** Sends every message back to its consumer (those there when it starts, at most SCAN_LIMIT). */
  replayAll(consumer: string): Promise<number> {
    return this.take(consumer, () => true, true, SCAN_LIMIT);
  }

  /** Removes one message for good; 0 when it is not in the queue (any more). */
  discard(consumer: string, messageId: string): Promise<number> {
    return this.take(consumer, (id) => id === messageId, false, 1);
  }

  /**
   * Takes the wanted events out of the dead-letter queue: replayed to the consumer's queue, or
   * discarded. A batch message (the broker dead-letters a batch whole) is taken apart when only
   * some of its events are wanted: those go their way, each of the others goes back to the
   * dead-letter queue as a message of its own with the batch's reason, and only once the broker
   * confirmed all that is the batch acked. A crash in between leaves the batch and some copies,
   * which replay harmlessly (the inbox). A batch wanted whole is replayed as it is.
   */
  private async take(consumer: string, wanted: (id: string) => boolean, replay: boolean, max: number): Promise<number> {
    const dlq = this.queueOf(consumer);
    const target = eventQueueName(this.names, consumer);
    const count = await this.count(dlq);
    if (!count) return 0;
    if (replay && (await this.count(target)) === null) throw new Error(`${target} does not exist: start the ${consumer} consumer first`);
    const replayed = () => ({ 'x-replayed-from': dlq, 'x-replayed-at': new Date().toISOString() });
    // What the queue holds once this is over: less the messages acked, plus a split batch's events sent back.
    let remaining = count;
    const done = await this.withChannel(async (ch) => {
      let done = 0;
      for (let i = 0; i < Math.min(count, SCAN_LIMIT) && done < max; i++) {
        const msg = await ch.get(dlq, { noAck: false });
        if (!msg) break;
        const events = eventsOf(msg);
        const chosen = events.filter((e) => wanted(e.id));
        // Not wanted: left unacknowledged, it goes back to the queue when the channel closes.
        if (chosen.length === 0) continue;
        if (events.length === 1 || chosen.length === events.length) {
          if (replay) {
            ch.sendToQueue(target, msg.content, {
              persistent: true,
              contentType: msg.properties.contentType,
              messageId: msg.properties.messageId,
              type: msg.properties.type,
              correlationId: msg.properties.correlationId,
              timestamp: msg.properties.timestamp,
              headers: { ...replayed(), ...(events.length > 1 ? { [EVENT_BATCH.countHeader]: events.length } : {}) },
            });
          }
        } else {
          const why = describe(msg);
          for (const e of events) {
            const own = { persistent: true, contentType: 'application/json', messageId: e.id, type: e.type ?? undefined, correlationId: e.correlationId ?? undefined, timestamp: msg.properties.timestamp };
            if (chosen.includes(e)) {
              if (replay) ch.sendToQueue(target, e.content, { ...own, headers: replayed() });
            } else {
              remaining++;
              ch.sendToQueue(dlq, e.content, {
                ...own,
                headers: {
                  [DEAD_LETTER_HEADERS.reason]: why.reason,
                  ...(why.error !== null ? { [DEAD_LETTER_HEADERS.error]: why.error } : {}),
                  ...(why.deliveries !== null ? { [DEAD_LETTER_HEADERS.deliveries]: why.deliveries } : {}),
                  ...(why.deadLetteredAt !== null ? { [DEAD_LETTER_HEADERS.at]: why.deadLetteredAt } : {}),
                  [DEAD_LETTER_HEADERS.consumer]: consumer,
                  ...(typeof msg.properties.messageId === 'string' ? { 'x-split-from-batch': msg.properties.messageId } : {}),
                },
              });
            }
          }
        }
        if (replay || events.length > 1) await ch.waitForConfirms();
        ch.ack(msg);
        remaining--;
        done += chosen.length;
        for (const e of chosen) this.log.warn(`${replay ? 'replayed' : 'discarded'} dead letter ${e.id} of ${consumer}`);
      }
      return done;
    });
    await this.returned(dlq, remaining);
    return done;
  }

  /** Waits (RETURN_WAIT_MS at most) until `queue` counts at least `expected` messages again. */
  private async returned(queue: string, expected: number): Promise<void> {
    const until = Date.now() + RETURN_WAIT_MS;
    while (Date.now() < until && ((await this.count(queue)) ?? expected) < expected) await new Promise((r) => setTimeout(r, 20));
  }

  /**
   * Messages in a queue, or null when it does not exist. Asked on a channel of its own: the broker
   * closes a channel whose checkQueue names no queue.
   */
  private async count(queue: string): Promise<number | null> {
    const model = this.connection.manager.connection;
    if (!model) throw new Error('not connected to RabbitMQ');
    const probe = await model.createChannel();
    probe.on('error', () => undefined);
    try {
      return (await probe.checkQueue(queue)).messageCount;
    } catch {
      return null;
    } finally {
      await probe.close().catch(() => undefined);
    }
  }

  /** A confirm channel of its own for one operation; closing it returns every message taken and not acknowledged. */
  private async withChannel<T>(work: (ch: ConfirmChannel) => Promise<T>): Promise<T> {
    const model = this.connection.manager.connection;
    if (!model) throw new Error('not connected to RabbitMQ');
    const ch = await model.createConfirmChannel();
    ch.on('error', (err: Error) => this.log.warn(`dead-letter channel: ${err.message}`));
    try {
      return await work(ch);
    } finally {
      await ch.close().catch(() => undefined);
    }
  }
}

/** The event id of a message, else its broker message id, else a hash of its bytes. */
export function messageIdOf(msg: GetMessage): string {
  const envelope = parseEnvelope(msg);
  if (envelope && typeof envelope.id === 'string' && /^[A-Za-z0-9:._-]{1,200}$/.test(envelope.id)) return envelope.id;
  const brokerId = msg.properties.messageId as unknown;
  if (typeof brokerId === 'string' && /^[A-Za-z0-9:._-]{1,200}$/.test(brokerId)) return brokerId;
  return `sha256-${createHash('sha256').update(msg.content).digest('hex').slice(0, 32)}`;
}

function parseEnvelope(msg: Pick<GetMessage, 'content'>): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(msg.content.toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** One event of a dead letter: the message itself, or one element of a batch, with its own bytes. */
interface DeadEvent {
  id: string;
  type: string | null;
  correlationId: string | null;
  content: Buffer;
}

/**
 * The events of a message: a batch's elements (EVENT_BATCH), each as the message of its own it
 * would have been; otherwise the message. A batch whose body cannot be read is one message.
 */
function eventsOf(msg: GetMessage): DeadEvent[] {
  if (EVENT_BATCH.is(msg.properties)) {
    try {
      return EVENT_BATCH.unpack(msg.content).map((element) => {
        const one = { ...msg, content: Buffer.from(JSON.stringify(element)), properties: { ...msg.properties, messageId: undefined } } as GetMessage;
        const envelope = parseEnvelope(one);
        const str = (v: unknown) => (typeof v === 'string' ? v : null);
        return { id: messageIdOf(one), type: str(envelope?.type), correlationId: str(envelope?.correlationId), content: one.content };
      });
    } catch {
      /* unreadable: the message as it is */
    }
  }
  return [{ id: messageIdOf(msg), type: typeof msg.properties.type === 'string' ? msg.properties.type : null, correlationId: msg.properties.correlationId ?? null, content: msg.content }];
}

/** What an operator sees of a message: one view, or one per event of a batch (each with the batch's reason). */
function describeAll(msg: GetMessage): DeadLetterView[] {
  const events = eventsOf(msg);
  if (events.length === 1) return [describe(msg)];
  return events.map((e) => describe({ ...msg, content: e.content, properties: { ...msg.properties, messageId: e.id } } as GetMessage));
}

function describe(msg: GetMessage): DeadLetterView {
  const headers = (msg.properties.headers ?? {}) as Record<string, unknown>;
  const death = Array.isArray(headers['x-death']) ? (headers['x-death'][0] as Record<string, unknown>) : null;
  const envelope = parseEnvelope(msg);
  const str = (v: unknown) => (typeof v === 'string' ? v : null);
  const num = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : null);
  const deathTime = death?.time as { value?: number } | Date | undefined;
  return {
    messageId: messageIdOf(msg),
    type: str(envelope?.type) ?? str(msg.properties.type),
    occurredAt: str(envelope?.occurredAt),
    reason: str(headers[DEAD_LETTER_HEADERS.reason]) ?? str(death?.reason) ?? 'unknown',
    error: str(headers[DEAD_LETTER_HEADERS.error]),
    deliveries: num(headers[DEAD_LETTER_HEADERS.deliveries]) ?? num(death?.count),
    deadLetteredAt:
      str(headers[DEAD_LETTER_HEADERS.at]) ??
      (deathTime instanceof Date ? deathTime.toISOString() : typeof deathTime?.value === 'number' ? new Date(deathTime.value * 1000).toISOString() : null),
    payloadSummary: summarize(envelope ? envelope.payload : msg.content.toString('utf8')),
  };
}

/** The payload's fields with short values; personal and secret ones redacted. */
export function summarize(payload: unknown): Record<string, string> {
  const short = (v: unknown) => {
    const s = typeof v === 'string' ? v : JSON.stringify(v) ?? String(v);
    return s.length > MAX_VALUE_LENGTH ? `${s.slice(0, MAX_VALUE_LENGTH - 1)}…` : s;
  };
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) return { value: short(payload) };
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(payload).slice(0, MAX_FIELDS)) out[key] = REDACTED.test(key) || IP_ADDRESS.test(key) ? '[redacted]' : short(value);
  return out;
}
