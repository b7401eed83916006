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
}
export type EventPayload<D extends EventDefinition> = z.infer<D['schema']>;

export interface EventOptions {
  /** Published before its first consumer exists: say why (and which work will consume it). */
  noConsumerReason?: string;
}

/** Declares an integration event. Names are past tense: `user-registered`, `tasks-credited`. */
export function defineEvent<S extends z.ZodType>(producer: string, name: string, version: number, schema: S, opts: EventOptions = {}): EventDefinition<S> {
  return { producer, name, version, routingKey: `${producer}.${name}.v${version}`, schema, ...(opts.noConsumerReason ? { noConsumerReason: opts.noConsumerReason } : {}) };
}
