import { z } from 'zod';
import * as contracts from '../index';
import { defineEvent, EventDefinition } from '../events/event-definition';
import { defineRpc, RpcDefinition } from '../rpc/rpc-definition';
import { portViolations } from './port-rules';
import { defineServicePort } from './service-port';
import { SERVICE_PORTS } from './index';
import { SERVICES } from './services';

const ports = Object.values(SERVICE_PORTS);
const isEvent = (v: unknown): v is EventDefinition => typeof v === 'object' && v !== null && 'routingKey' in v && 'schema' in v;
const isRpc = (v: unknown): v is RpcDefinition => typeof v === 'object' && v !== null && 'pattern' in v && 'request' in v;

describe('declared ports', () => {
  it('has exactly one port per service, under its own name', () => {
    expect(Object.keys(SERVICE_PORTS).sort()).toEqual([...SERVICES].sort());
    for (const [name, port] of Object.entries(SERVICE_PORTS)) expect(port.name).toBe(name);
  });

  it('agree with each other: every published event has a consumer or a stated reason, every consumed event a publisher', () => {
    expect(portViolations(ports)).toEqual([]);
  });

  it('declare every event and RPC the contracts define, so nothing travels outside a port', () => {
    const declaredEvents = new Set(ports.flatMap((p) => [...p.publishes, ...p.consumes]).map((e) => e.routingKey));
    const declaredRpcs = new Set(ports.flatMap((p) => p.answers).map((r) => r.pattern));
    const exported: unknown[] = Object.values(contracts);
    const events = exported.filter(isEvent).map((e) => e.routingKey);
    const rpcs = exported.flatMap((v) => (typeof v === 'object' && v !== null && !isEvent(v) ? Object.values(v).filter(isRpc) : [])).map((r) => r.pattern);
    expect(events.length).toBeGreaterThan(0);
    expect(rpcs.length).toBeGreaterThan(0);
    expect(events.filter((k) => !declaredEvents.has(k))).toEqual([]);
    expect(rpcs.filter((p) => !declaredRpcs.has(p))).toEqual([]);
  });

  it('has the gateway consume the task feed for the live view, so those events need no reason any more', () => {
    expect(contracts.TasksCredited.noConsumerReason).toBeUndefined();
    expect(contracts.TaskReversed.noConsumerReason).toBeUndefined();
    expect(contracts.GatewayPort.consumes).toEqual(expect.arrayContaining([contracts.TasksCredited, contracts.TaskReversed, contracts.BalanceChanged]));
    expect(contracts.NotificationsPort.consumes).toContain(contracts.EmailChanged);
  });
});

describe('the port rules', () => {
  const Happened = defineEvent('identity', 'thing-happened', 1, z.object({}));
  const Announced = defineEvent('identity', 'thing-announced', 1, z.object({}), { noConsumerReason: 'a later issue consumes it' });
  const ping = defineRpc('esim', 'ping', z.object({}), z.object({}));

  it('refuse an event published with no consumer and no reason, naming it', () => {
    const problems = portViolations([defineServicePort('identity', { publishes: [Happened, Announced] })]);
    expect(problems).toEqual([expect.stringContaining('identity.thing-happened.v1 is published by identity but no service consumes it')]);
  });

  it('refuse a stale reason once the event has a consumer', () => {
    const problems = portViolations([
      defineServicePort('identity', { publishes: [Announced] }),
      defineServicePort('notifications', { consumes: [Announced] }),
    ]);
    expect(problems).toEqual([expect.stringContaining('still says it has no consumer')]);
  });

  it('let a consumer drain a retired event nobody publishes any more, and refuse a port that still publishes it', () => {
    const Retired = defineEvent('identity', 'thing-done', 1, z.object({}), { retiredReason: 'replaced by identity.things-done.v1' });
    expect(portViolations([defineServicePort('notifications', { consumes: [Retired] })])).toEqual([]);
    expect(
      portViolations([defineServicePort('identity', { publishes: [Retired] }), defineServicePort('notifications', { consumes: [Retired] })]),
    ).toEqual([expect.stringContaining('identity publishes identity.thing-done.v1, which is retired')]);
  });

  it('refuse an RPC whose request carries userId: the acting user travels as meta.userId', () => {
    const actingInPayload = defineRpc('esim', 'list-things', z.object({ userId: z.string().uuid() }), z.object({}));
    const subjectByRole = defineRpc('esim', 'grant-thing', z.object({ recipientId: z.string().uuid() }), z.object({}));
    expect(portViolations([defineServicePort('esim', { answers: [actingInPayload, subjectByRole] })])).toEqual([
      expect.stringContaining('esim.list-things has userId in its request'),
    ]);
  });

  it('refuse a consumer of an event nobody publishes, and an event or RPC declared under the wrong service', () => {
    const problems = portViolations([
      defineServicePort('rewards', { consumes: [Happened], publishes: [Announced], answers: [ping] }),
    ]);
    expect(problems).toEqual(
      expect.arrayContaining([
        'rewards answers esim.ping, which is declared for esim',
        'rewards publishes identity.thing-announced.v1, whose producer is identity',
        'rewards consume(s) identity.thing-happened.v1, which no service publishes',
      ]),
    );
  });
});
