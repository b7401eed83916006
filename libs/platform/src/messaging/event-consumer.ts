import { setTimeout as sleep } from 'node:timers/promises';
import { Logger } from '@nestjs/common';
import { ROOT_CONTEXT, Span, Tracer } from '@opentelemetry/api';
import type { ChannelWrapper } from 'amqp-connection-manager';
import type { Channel, ConsumeMessage } from 'amqplib';
import { eventEnvelopeSchema, EventEnvelope } from '@esim/contracts';
import { RequestContext } from '../context/request-context';
import { deadLetterHeaders, DeadLetterReason } from '../dead-letters/dead-letter-headers';
import { secondsSince } from '../observability/metrics';
import type { PlatformMetrics } from '../observability/platform-metrics';
import { contextFrom, failed, inSpan, serviceTracer, SpanKind, tracingEnabled } from '../observability/tracing';
import { AmqpConnection } from './amqp-connection';
import { EVENT_BATCH } from './event-batch';
import { EventHandlerBinding } from './event-handler';
import { GroupCommit } from '../persistence/group-commit';
import { isDatabaseUnreachable } from '../persistence/postgres-errors';
import { Inbox } from './inbox';
import { MessagingNames, deadLetterQueueName, eventQueueName } from './topology';

export interface EventConsumerOptions extends MessagingNames {
  /** Names the durable queue and the inbox rows: usually the service name. */
  consumer: string;
  deliveryLimit: number;
  prefetch?: number;
  /** EVENT_GROUP_SPACING_MS: for a handler with handleAll, the least time between the starts of two groups under a steady stream (0: none). */
  groupSpacingMs?: number;
  /** Counts deliveries by outcome and times them (event_consumer_*). */
  metrics?: PlatformMetrics;
}

/** What the consumer did since it started; tests and operators read it. */
export interface EventConsumerStats {
  received: number;
  applied: number;
  /** Deliveries of an event applied before (a lost ack, a republish): acknowledged, not applied again. */
  duplicates: number;
  failed: number;
  /** Acks and nacks that could not be sent because the broker link had dropped. */
  settlementsLost: number;
  /** Deliveries held right now until the database answers again (untilStoreAnswers). */
  heldForStore: number;
}

type Settlement = 'ack' | 'retry' | 'dead-letter';

/**
 * What became of one event of a message: applied, a duplicate or without a handler (done), or
 * not, with why. `body` gives its envelope as a message of its own would carry it (made only when
 * it is dead-lettered: serializing each event of every batch again would be wasted).
 */
/** `unreachable`: the failure was the database being out of reach, not the event (isDatabaseUnreachable). */
type Outcome = { done: true } | { done: false; reason: DeadLetterReason; error: string; body: () => Buffer; envelope?: EventEnvelope; unreachable?: boolean };

/** Between probes of a database that could not be reached: doubling from the first, never above the last. */
const STORE_PROBE_MS = { first: 250, max: 5_000 } as const;

const DEFAULT_PREFETCH = 16;
/** When a handler applies deliveries in groups (handleAll), the groups can only be as large as the prefetch. */
const GROUPED_PREFETCH = 256;
/** At most this much work (EventHandler.weight) in one group of a handleAll: one transaction stays short, whatever the backlog. */
export const GROUPED_MAX_WEIGHT = 1000;

/**
 * Consumes the service's own quorum queue. Each delivery runs through the inbox (one transaction
 * with its handler's writes) and is acked only after that; a failure is nacked and redelivered
 * until the queue's delivery limit moves it to the dead-letter queue, where operators can see it.
 *
 * The broker link may drop at any moment: the channel a delivery came on is then gone, and its
 * ack or nack cannot be sent (and must never go to the next channel, where the delivery tag
 * means another message). Settling is therefore guarded, never throws, and the broker redelivers
 * what was not acked once the connection manager has reconnected and re-run `setup`, which
 * re-declares the queue and consumes again. The inbox turns the redelivery of an applied event
 * into an ack.
 */
export class EventConsumer {
  private readonly log = new Logger('EventConsumer');
  private readonly handlers = new Map<string, EventHandlerBinding>();
  /** Group commits of the handlers that apply several deliveries at once (handleAll), by event. */
  private readonly groups = new Map<string, GroupCommit<{ envelope: EventEnvelope; payload: unknown }, boolean>>();
  /**
   * Events being applied at once, whether they came alone or in batches: at most the prefetch, the
   * bound the broker set before batches (a message was an event), so a batch does not multiply the
   * transactions waiting on the database pool. Made on first use: the prefetch follows the handlers.
   */
  private slots?: Slots;
  private channel?: ChannelWrapper;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly closedChannels = new WeakSet<Channel>();
  private current?: { ch: Channel; consumerTag: string };
  private stopping = false;
  /** The one wait for the database to answer again, shared by every delivery that failed on it. */
  private storeBack?: Promise<void>;
  private readonly tracer: Tracer;
  readonly stats: EventConsumerStats = { received: 0, applied: 0, duplicates: 0, failed: 0, settlementsLost: 0, heldForStore: 0 };

  constructor(
    private readonly connection: AmqpConnection,
    private readonly inbox: Inbox,
    private readonly opts: EventConsumerOptions,
    bindings: EventHandlerBinding[] = [],
  ) {
    this.tracer = serviceTracer(opts.consumer);
    this.bind(bindings);
  }

  /** Adds handlers (before `start`); one per event type. */
  bind(bindings: EventHandlerBinding[]): void {
    for (const b of bindings) {
      const taken = this.handlers.get(b.event.routingKey);
      if (taken) throw new Error(`${b.event.routingKey} has two handlers: ${taken.name} and ${b.name}`);
      this.handlers.set(b.event.routingKey, b);
    }
  }

  private get inHand(): Slots {
    return (this.slots ??= new Slots(this.prefetch));
  }

  /** Unacknowledged deliveries the broker lets this consumer hold. */
  get prefetch(): number {
    const grouped = [...this.handlers.values()].some((b) => b.handler.handleAll);
    return this.opts.prefetch ?? (grouped ? GROUPED_PREFETCH : DEFAULT_PREFETCH);
  }

  get queue(): string {
    return eventQueueName(this.opts, this.opts.consumer);
  }

  get deadLetterQueue(): string {
    return deadLetterQueueName(this.opts, this.opts.consumer);
  }

  get eventTypes(): string[] {
    return [...this.handlers.keys()];
  }

  async start(): Promise<void> {
    if (this.handlers.size === 0) return;
    const queue = this.queue;
    const dlq = this.deadLetterQueue;
    this.stopping = false;
    this.channel = this.connection.manager.createChannel({
      name: `${this.opts.consumer}-events`,
      json: false,
      // Runs on every (re)connection, on the new channel.
      setup: async (ch: Channel) => {
        ch.once('close', () => this.closedChannels.add(ch));
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
        if (this.stopping) return;
        await ch.prefetch(this.prefetch);
        const { consumerTag } = await ch.consume(queue, (msg) => msg && this.track(this.onMessage(ch, msg)), { noAck: false });
        this.current = { ch, consumerTag };
      },
    });
    // Setup failures (a queue declared with other arguments, a refused bind) are reported here
    // rather than as an unhandled 'error' event, which would end the process.
    this.channel.on('error', (err: Error) => this.log.error(`event channel of ${queue}: ${err.message}`));
    await this.channel.waitForConnect();
  }

  /** Stops taking deliveries, lets the ones in hand finish (and ack), then closes. */
  async stop(): Promise<void> {
    if (!this.channel) return;
    this.stopping = true;
    const current = this.current;
    if (current && !this.closedChannels.has(current.ch)) await current.ch.cancel(current.consumerTag).catch(() => undefined);
    await Promise.allSettled([...this.inFlight]);
    await this.channel.close().catch(() => undefined);
    this.channel = undefined;
  }

  private track(p: Promise<void>): void {
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p));
  }

  /** Never rejects: whatever happens to one message must not take the process down. */
  private async onMessage(ch: Channel, msg: ConsumeMessage): Promise<void> {
    try {
      if (EVENT_BATCH.is(msg.properties)) await this.handleBatch(ch, msg);
      else await this.handle(ch, msg);
    } catch (err) {
      this.log.error(`unexpected failure consuming from ${this.queue}: ${(err as Error).stack ?? String(err)}`);
    }
  }

  /** A message with one event: applied, retried, or dead-lettered with why. */
  private async handle(ch: Channel, msg: ConsumeMessage): Promise<void> {
    this.stats.received++;
    let raw: unknown;
    try {
      raw = JSON.parse(msg.content.toString('utf8'));
    } catch (err) {
      raw = new Unreadable((err as Error).message);
    }
    const outcome = await this.inHand.run(() => this.process(msg, raw, () => msg.content, true));
    if (!outcome.done && outcome.unreachable) await this.untilStoreAnswers();
    if (outcome.done) this.settle(ch, msg, 'ack');
    else if (outcome.reason === 'unreadable' || this.atLimit(msg)) this.deadLetter(ch, msg, outcome.reason, outcome.error);
    else this.settle(ch, msg, 'retry');
  }

  /**
   * A message with several events of one type (EVENT_BATCH, from the outbox relay). Each goes the
   * way a message of its own goes (inbox, grouping, metrics, context); the message is acked once
   * every one is applied or a duplicate. When some fail, below the delivery limit the whole message
   * comes round again (the inbox turns the applied ones into duplicates); at the limit only the
   * events that failed go to the dead-letter queue, each as a message of its own with why, and the
   * message is acked. An event that cannot be read cannot get better: it is dead-lettered as soon
   * as the others are settled, without holding the message back.
   */
  private async handleBatch(ch: Channel, msg: ConsumeMessage): Promise<void> {
    let elements: unknown[];
    try {
      elements = EVENT_BATCH.unpack(msg.content);
    } catch (err) {
      this.stats.received++;
      this.log.error(`unreadable event batch on ${this.queue}, dead-lettering it: ${(err as Error).message}`);
      this.opts.metrics?.deliveries.inc({ event: 'unknown', outcome: 'unreadable' });
      this.deadLetter(ch, msg, 'unreadable', (err as Error).message);
      return;
    }
    this.stats.received += elements.length;
    // Only the first event's trace came with the message (see OutboxRelay.publish).
    const outcomes = await Promise.all(
      elements.map((raw, i) => this.inHand.run(() => this.process(msg, raw, () => Buffer.from(JSON.stringify(raw)), i === 0))),
    );
    const failures = outcomes.filter((o): o is Extract<Outcome, { done: false }> => !o.done);
    if (failures.length === 0) {
      this.settle(ch, msg, 'ack');
      return;
    }
    if (failures.some((f) => f.unreachable)) await this.untilStoreAnswers();
    if (failures.some((f) => f.reason === 'handler_failed') && !this.atLimit(msg)) {
      this.settle(ch, msg, 'retry');
      return;
    }
    this.deadLetterEach(ch, msg, failures);
  }

  /** Whether the queue will not deliver this message again: it dead-letters past its delivery limit. */
  private atLimit(msg: ConsumeMessage): boolean {
    return Number(msg.properties.headers?.['x-delivery-count'] ?? 0) >= this.opts.deliveryLimit;
  }

  /**
   * One event, from a message of its own or from a batch: parsed, handed to its handler through
   * the inbox, counted, in its own RequestContext (and span, continuing the trace the message
   * carried when `traced`). Settles nothing; says what happened.
   */
  private async process(msg: ConsumeMessage, raw: unknown, body: () => Buffer, traced: boolean): Promise<Outcome> {
    let envelope: EventEnvelope;
    try {
      if (raw instanceof Unreadable) throw new Error(raw.message);
      envelope = eventEnvelopeSchema.parse(raw) as EventEnvelope;
    } catch (err) {
      this.log.error(`unreadable message on ${this.queue}, dead-lettering it: ${(err as Error).message}`);
      this.opts.metrics?.deliveries.inc({ event: 'unknown', outcome: 'unreadable' });
      return { done: false, reason: 'unreadable', error: (err as Error).message, body };
    }
    const binding = this.handlers.get(envelope.type);
    if (!binding) {
      this.log.warn(`no handler for ${envelope.type} on ${this.queue}; acknowledging`);
      this.opts.metrics?.deliveries.inc({ event: envelope.type, outcome: 'unhandled' });
      return { done: true };
    }
    const started = process.hrtime.bigint();
    // The trace the event was announced in continues here (the relay published its context as headers).
    const span = tracingEnabled()
      ? {
          kind: SpanKind.CONSUMER,
          parent: traced ? contextFrom(msg.properties.headers) : ROOT_CONTEXT,
          attributes: {
            'messaging.system': 'rabbitmq',
            'messaging.destination.name': this.queue,
            'messaging.message.id': envelope.id,
            correlation_id: envelope.correlationId,
          },
        }
      : undefined;
    return RequestContext.run({ correlationId: envelope.correlationId, causationId: envelope.id }, () =>
      inSpan(this.tracer, `${envelope.type} process`, span, (s) => this.deliver(msg, binding, envelope, body, started, s)),
    );
  }

  private async deliver(
    msg: ConsumeMessage,
    binding: EventHandlerBinding,
    envelope: EventEnvelope,
    body: () => Buffer,
    started: bigint,
    span?: Span,
  ): Promise<Outcome> {
    try {
      const payload = binding.event.schema.parse(envelope.payload);
      const applied = await this.apply(binding, envelope, payload);
      if (applied) this.stats.applied++;
      else this.stats.duplicates++;
      this.opts.metrics?.deliveries.inc({ event: envelope.type, outcome: applied ? 'applied' : 'duplicate' });
      this.opts.metrics?.handling.observe({ event: envelope.type }, secondsSince(started));
      span?.setAttribute('inbox.duplicate', !applied);
      // Per delivery at debug: a line per event cost more than the inbox write in a burst of
      // postbacks (bench/postbacks.bench.mjs); counts and timings are in event_consumer_* metrics.
      if (applied) this.log.debug(`applied ${envelope.type} ${envelope.id}`);
      else this.log.debug(`skipped ${envelope.type} ${envelope.id}: already applied`);
      return { done: true };
    } catch (err) {
      this.stats.failed++;
      this.opts.metrics?.deliveries.inc({ event: envelope.type, outcome: 'failed' });
      failed(span, err);
      // The quorum queue counts returns; past the limit it moves the message to the DLQ.
      const returns = Number(msg.properties.headers?.['x-delivery-count'] ?? 0);
      const fate = this.atLimit(msg) ? 'going to the dead-letter queue' : `retry ${returns + 1} of ${this.opts.deliveryLimit}`;
      this.log.error(`handling ${envelope.type} ${envelope.id} failed, ${fate}: ${(err as Error).message}`);
      return { done: false, reason: 'handler_failed', error: (err as Error).message, body, envelope, unreachable: isDatabaseUnreachable(err) };
    }
  }

  /**
   * Holds the deliveries that failed only because the database could not be reached until it
   * answers again (or the consumer stops), and only then returns them to the queue. Returned at
   * once, they came straight back, failed again, and spent the queue's delivery limit within
   * milliseconds: during a database cut accepted postbacks went to the dead-letter queue and were
   * never credited (scripts/chaos-drill.mjs). Now an outage costs each one delivery.
   */
  private async untilStoreAnswers(): Promise<void> {
    const probe = this.inbox.reachable?.bind(this.inbox);
    if (!probe) return;
    this.stats.heldForStore++;
    try {
      await this.storeWait(probe);
    } finally {
      this.stats.heldForStore--;
    }
  }

  private storeWait(probe: () => Promise<boolean>): Promise<void> {
    this.storeBack ??= (async () => {
      for (let waitMs: number = STORE_PROBE_MS.first; !this.stopping; waitMs = Math.min(waitMs * 2, STORE_PROBE_MS.max)) {
        if (await probe()) return;
        this.log.warn(`the database cannot be reached; holding the failed deliveries of ${this.queue}, next try in ${waitMs} ms`);
        await sleep(waitMs);
      }
    })().finally(() => (this.storeBack = undefined));
    return this.storeBack;
  }

  /** Through the inbox: alone, or grouped with the deliveries of the same event that arrive together (handleAll). */
  private apply(binding: EventHandlerBinding, envelope: EventEnvelope, payload: unknown): Promise<boolean> {
    const { handler } = binding;
    const applyAll = this.inbox.applyAll?.bind(this.inbox);
    if (!handler.handleAll || !applyAll)
      return this.inbox.apply(this.opts.consumer, envelope, (tx) => handler.handle(payload, tx, envelope));
    let group = this.groups.get(binding.event.routingKey);
    if (!group) {
      group = new GroupCommit<{ envelope: EventEnvelope; payload: unknown }, boolean>(
        (items) =>
          applyAll(
            this.opts.consumer,
            items.map((i) => i.envelope),
            (tx, fresh) =>
              handler.handleAll!(
                items.filter((i) => fresh.includes(i.envelope)),
                tx,
              ),
          ),
        // A group is at most what the prefetch lets in, and what its events carry at most
        // GROUPED_MAX_WEIGHT; two groups overlap (one commits while the next forms). Under a
        // steady stream a group also holds what arrived in groupSpacingMs: each group costs a
        // transaction and its announcements (TasksCredited, BalanceChanged), whatever its size.
        {
          maxBatch: this.prefetch,
          concurrency: 2,
          spacingMs: this.opts.groupSpacingMs ?? 0,
          ...(handler.weight ? { weightOf: (i: { payload: unknown }) => handler.weight!(i.payload), maxWeight: GROUPED_MAX_WEIGHT } : {}),
        },
      );
      this.groups.set(binding.event.routingKey, group);
    }
    return group.submit({ envelope, payload });
  }

  /**
   * Moves a message that will not be applied to the dead-letter queue with why (the last error,
   * how many deliveries), then acks it, on the channel it came on: the publish is sent first, so
   * a link that drops in between leaves the message to be delivered again, never lost. The
   * queue's delivery limit stays as the broker's own safety net (a handler that kills the
   * process), where only "delivery_limit" is known. Operators read the reason on /admin
   * (libs/platform/src/dead-letters).
   */
  private deadLetter(ch: Channel, msg: ConsumeMessage, reason: DeadLetterReason, error: string): void {
    if (this.closedChannels.has(ch)) {
      this.settlementLost(msg, 'dead-letter', 'the channel closed');
      return;
    }
    try {
      const returns = Number(msg.properties.headers?.['x-delivery-count'] ?? 0);
      ch.sendToQueue(this.deadLetterQueue, msg.content, {
        ...msg.properties,
        persistent: true,
        headers: deadLetterHeaders(msg, { reason, error, deliveries: returns + 1, consumer: this.opts.consumer }),
      });
    } catch (err) {
      this.log.warn(
        `could not move message ${msg.properties.messageId ?? msg.fields.deliveryTag} to ${this.deadLetterQueue} (${(err as Error).message}); the broker dead-letters it`,
      );
      this.settle(ch, msg, 'dead-letter');
      return;
    }
    this.settle(ch, msg, 'ack');
  }

  /**
   * The events of a batch that will not be applied, each to the dead-letter queue as a message of
   * its own (its envelope, its id and type, the batch's headers with why), then the batch is acked:
   * the others were applied. Sent before the ack, as in `deadLetter`; if a send fails, the batch is
   * nacked and the broker dead-letters it whole (the reader still shows and replays each event).
   */
  private deadLetterEach(ch: Channel, msg: ConsumeMessage, failures: Array<Extract<Outcome, { done: false }>>): void {
    if (this.closedChannels.has(ch)) {
      this.settlementLost(msg, 'dead-letter', 'the channel closed');
      return;
    }
    const returns = Number(msg.properties.headers?.['x-delivery-count'] ?? 0);
    try {
      for (const f of failures) {
        const headers = deadLetterHeaders(msg, { reason: f.reason, error: f.error, deliveries: returns + 1, consumer: this.opts.consumer });
        delete headers[EVENT_BATCH.countHeader];
        ch.sendToQueue(this.deadLetterQueue, f.body(), {
          persistent: true,
          contentType: 'application/json',
          messageId: f.envelope?.id,
          type: f.envelope?.type ?? msg.properties.type,
          correlationId: f.envelope?.correlationId,
          timestamp: msg.properties.timestamp,
          headers,
        });
      }
    } catch (err) {
      this.log.warn(
        `could not move events of batch ${msg.properties.messageId ?? msg.fields.deliveryTag} to ${this.deadLetterQueue} (${(err as Error).message}); the broker dead-letters it`,
      );
      this.settle(ch, msg, 'dead-letter');
      return;
    }
    this.settle(ch, msg, 'ack');
  }

  /**
   * Acks or nacks on the channel the message came on. When that channel has closed, there is
   * nothing to do: the broker already took the message back and will deliver it again.
   */
  private settle(ch: Channel, msg: ConsumeMessage, how: Settlement): void {
    if (this.closedChannels.has(ch)) {
      this.settlementLost(msg, how, 'the channel closed');
      return;
    }
    try {
      if (how === 'ack') ch.ack(msg);
      else ch.nack(msg, false, how === 'retry');
    } catch (err) {
      this.settlementLost(msg, how, (err as Error).message);
    }
  }

  private settlementLost(msg: ConsumeMessage, how: Settlement, why: string): void {
    this.stats.settlementsLost++;
    this.log.warn(
      `could not ${how} message ${msg.properties.messageId ?? msg.fields.deliveryTag} on ${this.queue} (${why}); the broker delivers it again`,
    );
  }
}

/** A message body that is not JSON, carried to `process` so that it is reported as any unreadable event. */
class Unreadable {
  constructor(readonly message: string) {}
}

/**
 * Runs at most `size` pieces of work at once; the others wait their turn, in order. Written here
 * because it is a dozen lines and the usual package for it (p-limit) is ESM-only, which the
 * services' CommonJS build cannot require.
 */
class Slots {
  /**
   * Who waits, from `head` on. Not `shift()`: with grouped consumers tens of thousands of events can
   * wait here (prefetch messages of up to 200 events each), and shifting them one by one was a tenth
   * of the gateway's CPU in a profile. Consumed entries are dropped once they are half the array.
   */
  private waiting: Array<() => void> = [];
  private head = 0;
  private free: number;

  constructor(size: number) {
    this.free = size;
  }

  async run<R>(work: () => Promise<R>): Promise<R> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await work();
    } finally {
      this.next();
    }
  }

  private next(): void {
    if (this.head === this.waiting.length) {
      this.free++;
      return;
    }
    const resolve = this.waiting[this.head++];
    if (this.head * 2 >= this.waiting.length) {
      this.waiting = this.waiting.slice(this.head);
      this.head = 0;
    }
    resolve();
  }
}
