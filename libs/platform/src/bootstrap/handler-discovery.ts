import { Injectable } from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import type { ServicePort } from '@esim/contracts';
import { EventHandler, EventHandlerBinding, handledEvent } from '../messaging/event-handler';
import { answeredRpc } from '../messaging/rpc-handler.decorator';

export interface DiscoveredRpcHandler {
  pattern: string;
  /** `Class.method`, for messages. */
  name: string;
}

/** Finds the service's @EventHandler classes and @RpcHandler methods, wherever their module is. */
@Injectable()
export class HandlerDiscovery {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
  ) {}

  eventHandlers(): EventHandlerBinding[] {
    return this.discovery.getProviders().flatMap((w) => {
      const type = w.metatype;
      const event = typeof type === 'function' && w.instance ? handledEvent(type) : undefined;
      return event ? [{ event, handler: w.instance as EventHandler, name: type!.name }] : [];
    });
  }

  rpcHandlers(): DiscoveredRpcHandler[] {
    return this.discovery.getControllers().flatMap((w) => {
      if (!w.instance) return [];
      const proto = Object.getPrototypeOf(w.instance) as Record<string, unknown>;
      return this.scanner.getAllMethodNames(proto).flatMap((method) => {
        const fn = proto[method];
        const rpc = typeof fn === 'function' ? answeredRpc(fn) : undefined;
        return rpc ? [{ pattern: rpc.pattern, name: `${w.metatype?.name ?? 'controller'}.${method}` }] : [];
      });
    });
  }
}

/** Thrown at start-up when a service's handlers are not exactly what its port declares. */
export class PortMismatchError extends Error {
  constructor(readonly service: string, readonly problems: string[]) {
    super(`${service} does not match its port (libs/contracts/src/ports/${service}.port.ts):\n  - ${problems.join('\n  - ')}`);
    this.name = 'PortMismatchError';
  }
}

/**
 * Compares what the service handles with what its port declares: every declared consumer has
 * its @EventHandler and every declared RPC its @RpcHandler, and nothing is handled undeclared.
 */
export function portMismatches(port: ServicePort, events: Pick<EventHandlerBinding, 'event' | 'name'>[], rpcs: DiscoveredRpcHandler[]): string[] {
  const problems: string[] = [];
  const handled = new Map<string, string[]>();
  for (const e of events) handled.set(e.event.routingKey, [...(handled.get(e.event.routingKey) ?? []), e.name]);
  const consumes = new Set(port.consumes.map((e) => e.routingKey));
  for (const key of consumes) if (!handled.has(key)) problems.push(`the port says it consumes ${key}, but no @EventHandler(…) class handles it`);
  for (const [key, names] of handled) {
    if (!consumes.has(key)) problems.push(`${names.join(', ')} handle(s) ${key}, which the port does not list in consumes`);
    if (names.length > 1) problems.push(`${key} has several handlers: ${names.join(', ')}`);
  }

  const answered = new Map<string, string[]>();
  for (const r of rpcs) answered.set(r.pattern, [...(answered.get(r.pattern) ?? []), r.name]);
  const answers = new Set(port.answers.map((r) => r.pattern));
  for (const pattern of answers) if (!answered.has(pattern)) problems.push(`the port says it answers ${pattern}, but no @RpcHandler(…) method does`);
  for (const [pattern, names] of answered) {
    if (!answers.has(pattern)) problems.push(`${names.join(', ')} answer(s) ${pattern}, which the port does not list in answers`);
    if (names.length > 1) problems.push(`${pattern} has several handlers: ${names.join(', ')}`);
  }
  return problems;
}
