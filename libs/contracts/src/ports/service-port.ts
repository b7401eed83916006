import type { EventDefinition } from '../events/event-definition';
import type { RpcDefinition } from '../rpc/rpc-definition';
import type { ServiceName } from './services';

/**
 * A service's whole wire surface: the RPCs it answers, the events it publishes and the events it
 * consumes. At start-up the platform checks that the service's @RpcHandler methods and
 * @EventHandler classes are exactly `answers` and `consumes`; ports.spec.ts checks that the ports
 * agree with each other (every published event has a consumer or a stated reason).
 */
export interface ServicePort {
  /** A ServiceName for every real service (defineServicePort); tests may describe others. */
  name: string;
  answers: readonly RpcDefinition[];
  publishes: readonly EventDefinition[];
  consumes: readonly EventDefinition[];
}

export function defineServicePort(
  name: ServiceName,
  surface: { answers?: readonly RpcDefinition[]; publishes?: readonly EventDefinition[]; consumes?: readonly EventDefinition[] },
): ServicePort {
  return { name, answers: surface.answers ?? [], publishes: surface.publishes ?? [], consumes: surface.consumes ?? [] };
}
