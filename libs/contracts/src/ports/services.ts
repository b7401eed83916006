/**
 * Every process of the product: the one list that start-all, the test system, the test
 * namespace's cleanup and the configuration docs read. Each has exactly one port (ports/index.ts).
 */
export const SERVICES = ['identity', 'rewards', 'esim', 'payments', 'notifications', 'webhooks', 'gateway'] as const;
export type ServiceName = (typeof SERVICES)[number];

/** The services behind the gateway: each owns a schema and answers RPC on its own queue. */
export const BACKEND_SERVICES = SERVICES.filter((s): s is Exclude<ServiceName, 'gateway'> => s !== 'gateway');
export type BackendServiceName = (typeof BACKEND_SERVICES)[number];
