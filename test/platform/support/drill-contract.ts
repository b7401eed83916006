import { z } from 'zod';
import { defineEvent, defineRpc, ServicePort } from '@esim/contracts';

/**
 * The wire of the broker-drop drill: a small service on the real platform that consumes Pinged
 * (sent by the test), records it and publishes Ponged through its outbox, which it consumes too;
 * and answers Echo. Its every broker use (consumer, relay, RPC server) shares the one connection
 * the test cuts.
 */
export const Pinged = defineEvent('drill', 'pinged', 1, z.object({ n: z.number().int() }));
export const Ponged = defineEvent('drill', 'ponged', 1, z.object({ n: z.number().int() }));
export const Echo = defineRpc('drill', 'echo', z.object({ n: z.number().int() }), z.object({ n: z.number().int() }));

export const DrillPort: ServicePort = { name: 'drill', answers: [Echo], publishes: [Ponged], consumes: [Pinged, Ponged] };

/** Messages between the drill process and the test, over the child-process IPC channel. */
export type DrillMessage =
  | { type: 'ready' }
  | { type: 'stats'; stats: { received: number; applied: number; duplicates: number; failed: number; settlementsLost: number } }
  | { type: 'fatal'; event: string; message: string };
