import type { EventDefinition, EventEnvelope, EventPayload } from '@esim/contracts';
import type { Tx } from './unit-of-work';

/**
 * Applies one integration event inside the consumer's transaction. Whatever it writes through
 * `tx` commits together with the inbox row, so a redelivery finds the row and does nothing.
 */
export interface EventHandler<D extends EventDefinition = EventDefinition> {
  readonly event: D;
  handle(payload: EventPayload<D>, tx: Tx, envelope: EventEnvelope<EventPayload<D>>): Promise<void>;
}
