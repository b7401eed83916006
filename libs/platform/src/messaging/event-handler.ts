import 'reflect-metadata';
import { Injectable } from '@nestjs/common';
import type { EventDefinition, EventEnvelope, EventPayload } from '@esim/contracts';
import type { Tx } from './unit-of-work';

const EVENT_HANDLER = Symbol.for('esim:event-handler');

/**
 * Applies one integration event inside the consumer's transaction. Whatever it writes through
 * `tx` commits together with the inbox row, so a redelivery finds the row and does nothing.
 * In the gateway, which has no database, `tx` has no manager and cannot publish: handlers there
 * act on Redis and must be idempotent (see docs/architecture.md, "The gateway consumes events").
 */
export interface EventHandler<D extends EventDefinition = EventDefinition> {
  handle(payload: EventPayload<D>, tx: Tx, envelope: EventEnvelope<EventPayload<D>>): Promise<void>;
  /**
   * Optional, for a hot event: applies several deliveries in one transaction. The consumer then
   * groups the deliveries of this event that arrive together (each still applied once, through the
   * inbox); a group that fails is applied again one delivery at a time, through `handleAll`.
   */
  handleAll?(events: Array<{ payload: EventPayload<D>; envelope: EventEnvelope<EventPayload<D>> }>, tx: Tx): Promise<void>;
  /**
   * Optional, with `handleAll`, for an event that carries many items of work: how many this one
   * carries. A group then holds at most GROUPED_MAX_WEIGHT of them (or a single event), however many
   * events the prefetch lets in. Without it, each event weighs one.
   */
  weight?(payload: EventPayload<D>): number;
}

/**
 * Marks a class as the consumer of one event, in the module of the feature it belongs to (like
 * @RpcHandler). The platform finds it at start-up and checks it against the service's port:
 *
 *   @EventHandler(UserRegistered)
 *   export class SignupBonusEventHandler implements EventHandler<typeof UserRegistered> { … }
 *
 * The class is also made @Injectable.
 */
export function EventHandler(event: EventDefinition): ClassDecorator {
  return (target) => {
    Reflect.defineMetadata(EVENT_HANDLER, event, target);
    Injectable()(target);
  };
}

/** The event a class consumes, when it is an @EventHandler. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export function handledEvent(type: Function): EventDefinition | undefined {
  return Reflect.getMetadata(EVENT_HANDLER, type) as EventDefinition | undefined;
}

/** A discovered handler and the event it consumes. */
export interface EventHandlerBinding {
  event: EventDefinition;
  handler: EventHandler;
  /** The class name, for messages. */
  name: string;
}
