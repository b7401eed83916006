import { z } from 'zod';

/** Every integration event on the wire is wrapped in this envelope. */
export const eventEnvelopeSchema = z.object({
  id: z.string().uuid(),
  type: z.string().min(1),
  occurredAt: z.string().datetime(),
  correlationId: z.string().min(1),
  causationId: z.string().nullable(),
  payload: z.unknown(),
});
export type EventEnvelope<P = unknown> = Omit<z.infer<typeof eventEnvelopeSchema>, 'payload'> & { payload: P };

export interface EventDefinition<S extends z.ZodType = z.ZodType> {
  producer: string;
  name: string;
  version: number;
  /** `<producer>.<event>.v<N>`, also the envelope's `type`. */
  routingKey: string;
  schema: S;
  /**
   * Why the event is published although no service consumes it yet. Without a reason, the port
   * check (ports.spec.ts) fails for an event nobody consumes: such events would only pile up.
   */
  noConsumerReason?: string;
  /**
   * Why the event is no longer published (what replaced it). Its consumers keep their handler, so
   * that events announced before the producer was upgraded (in an outbox, a queue, a dead-letter
   * queue) are still applied; the port check lets them consume it without a publisher, and refuses
   * a port that still publishes it.
   */
  retiredReason?: string;
}
export type EventPayload<D extends EventDefinition> = z.infer<D['schema']>;

export interface EventOptions {
  /** Published before its first consumer exists: say why (and which work will consume it). */
  noConsumerReason?: string;
  /** No longer published: say what replaced it (its consumers drain what is still in flight). */
  retiredReason?: string;
}

/** Declares an integration event. Names are past tense: `user-registered`, `tasks-credited`. */
export function defineEvent<S extends z.ZodType>(producer: string, name: string, version: number, schema: S, opts: EventOptions = {}): EventDefinition<S> {
  return {
    producer,
    name,
    version,
    routingKey: `${producer}.${name}.v${version}`,
    schema,
    ...(opts.noConsumerReason ? { noConsumerReason: opts.noConsumerReason } : {}),
    ...(opts.retiredReason ? { retiredReason: opts.retiredReason } : {}),
  };
}
