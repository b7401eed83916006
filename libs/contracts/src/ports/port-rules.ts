import { z } from 'zod';
import type { EventDefinition } from '../events/event-definition';
import type { RpcDefinition } from '../rpc/rpc-definition';
import type { ServicePort } from './service-port';

/**
 * What must hold between the ports of all services; each broken rule is one readable line.
 * An event published with no consumer would only pile up in the producer's outbox, so it needs
 * a consumer or an explicit `noConsumerReason` on its contract. A retired event (`retiredReason`)
 * is published by nobody, and its consumers need no publisher: they drain what is in flight. No
 * RPC request has a `userId` field, so that the acting user (meta.userId) is never confused with
 * a user the call is about.
 */
export function portViolations(ports: readonly ServicePort[]): string[] {
  const problems: string[] = [];
  const publishers = new Map<string, string[]>();
  const consumers = new Map<string, string[]>();
  const answerers = new Map<string, string[]>();
  const add = (m: Map<string, string[]>, key: string, who: string) => m.set(key, [...(m.get(key) ?? []), who]);
  const duplicates = (list: readonly (EventDefinition | RpcDefinition)[]) => {
    const keys = list.map((d) => ('routingKey' in d ? d.routingKey : d.pattern));
    return keys.filter((k, i) => keys.indexOf(k) !== i);
  };

  for (const port of ports) {
    for (const [what, list] of [['answers', port.answers], ['publishes', port.publishes], ['consumes', port.consumes]] as const) {
      for (const dup of duplicates(list)) problems.push(`${port.name} ${what} ${dup} twice`);
    }
    for (const rpc of port.answers) {
      if (rpc.service !== port.name) problems.push(`${port.name} answers ${rpc.pattern}, which is declared for ${rpc.service}`);
      if (rpc.request instanceof z.ZodObject && 'userId' in rpc.request.shape) {
        problems.push(`${rpc.pattern} has userId in its request: the acting user travels as meta.userId; name a user the call is about by its role (recipientId, userIds)`);
      }
      add(answerers, rpc.pattern, port.name);
    }
    for (const event of port.publishes) {
      if (event.producer !== port.name) problems.push(`${port.name} publishes ${event.routingKey}, whose producer is ${event.producer}`);
      if (event.retiredReason) problems.push(`${port.name} publishes ${event.routingKey}, which is retired ("${event.retiredReason}")`);
      add(publishers, event.routingKey, port.name);
    }
    for (const event of port.consumes) if (!event.retiredReason) add(consumers, event.routingKey, port.name);
  }

  for (const [pattern, who] of answerers) if (who.length > 1) problems.push(`${pattern} is answered by ${who.join(' and ')}`);
  for (const [key, who] of publishers) if (who.length > 1) problems.push(`${key} is published by ${who.join(' and ')}`);
  const published = new Map(ports.flatMap((p) => p.publishes.map((e) => [e.routingKey, e] as const)));
  for (const [key, event] of published) {
    if (event.retiredReason) continue;
    const by = consumers.get(key) ?? [];
    if (by.length === 0 && !event.noConsumerReason) {
      problems.push(`${key} is published by ${event.producer} but no service consumes it: declare its consumer, or give the contract a noConsumerReason`);
    }
    if (by.length > 0 && event.noConsumerReason) {
      problems.push(`${key} is consumed by ${by.join(', ')} but its contract still says it has no consumer ("${event.noConsumerReason}")`);
    }
  }
  for (const [key, by] of consumers) if (!published.has(key)) problems.push(`${by.join(', ')} consume(s) ${key}, which no service publishes`);
  return problems;
}
