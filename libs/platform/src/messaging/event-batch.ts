/**
 * Several events of one type in one AMQP message: the body is a JSON array of their envelopes.
 *
 * Why: on the offer-wall postback path (issue 12, bench/postbacks.bench.mjs) each credit cost two
 * or more broker messages, and RabbitMQ spent about 0.49 ms of CPU per credit, as much as a
 * service; per message, the relay also paid a publish and a confirm, and each consumer an ack. At
 * 618 credits/s that was most of the gap to the 25% of pgbench's TPS the issue asks for. A pass
 * of the relay that carries 100 events of one type now costs the broker one message.
 *
 * The event contracts do not change: each element is the envelope that a single message would
 * carry, and a pass with one event of a type still sends it as a single message, exactly as
 * before, so consumers that do not know batches keep working for those.
 *
 * A batch is marked twice, by its content type and by a header with its count, so that it is
 * recognised even where one of them is lost (the dead-letter replayer copies the content type,
 * the broker keeps the headers).
 */
export const EVENT_BATCH = {
  contentType: 'application/vnd.esim.event-batch+json',
  /** Header with the number of envelopes in the message. */
  countHeader: 'x-event-batch',
  /**
   * At most this many events per message: the consumer holds them all until the last one is
   * applied, and a failure sends them all round again (the inbox skips those applied).
   */
  maxEvents: 200,
  /** At most this many bytes of body per message, far below RabbitMQ's limits, so one message stays cheap to redeliver. */
  maxBytes: 256 * 1024,

  /** Whether a message's properties mark it as a batch. */
  is(properties: { contentType?: unknown; headers?: Record<string, unknown> | null }): boolean {
    return properties.contentType === EVENT_BATCH.contentType || properties.headers?.[EVENT_BATCH.countHeader] !== undefined;
  },

  /**
   * Splits serialized items into runs of the same key, each within the caps: in the order of the
   * first item of each run (items of other keys in between do not break a run; see the relay on order).
   */
  pack<T>(items: T[], keyOf: (item: T) => string, bytesOf: (item: T) => number): T[][] {
    const open = new Map<string, { items: T[]; bytes: number }>();
    const out: T[][] = [];
    for (const item of items) {
      const key = keyOf(item);
      const bytes = bytesOf(item) + 1; // the comma or bracket
      let run = open.get(key);
      if (run && (run.items.length >= EVENT_BATCH.maxEvents || run.bytes + bytes > EVENT_BATCH.maxBytes)) run = undefined;
      if (!run) {
        run = { items: [], bytes: 1 };
        open.set(key, run);
        out.push(run.items);
      }
      run.items.push(item);
      run.bytes += bytes;
    }
    return out;
  },

  /** The envelopes of a batch body, still unchecked; throws when the body is not a JSON array. */
  unpack(content: Buffer): unknown[] {
    const value: unknown = JSON.parse(content.toString('utf8'));
    if (!Array.isArray(value)) throw new Error('an event batch must be a JSON array of envelopes');
    if (value.length === 0) throw new Error('an event batch must not be empty');
    return value;
  },
} as const;
