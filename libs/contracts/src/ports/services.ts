/**
 * Every process of the product: the one list that start-all, the test system, the test
 * namespace's cleanup and the configuration docs read. Each has exactly one port (ports/index.ts).
 */
export const SERVICES = ['identity', 'rewards', 'esim', 'payments', 'notifications', 'webhooks', 'gateway'] as const;
export type ServiceName = (typeof SERVICES)[number];

/**
 * Each process's default HTTP port (health, /metrics; the gateway's app and API; the ingestion
 * service's provider callbacks): its start function, npm start (which moves them all by
 * PORT_OFFSET) and the tests that run npm start read them here.
 */
export const DEFAULT_HTTP_PORTS: Readonly<Record<ServiceName, number>> = {
  identity: 3101,
  rewards: 3102,
  esim: 3103,
  payments: 3104,
  notifications: 3105,
  webhooks: 3106,
  gateway: 3000,
};

/** The services behind the gateway: each owns a schema and answers RPC on its own queue. */
export const BACKEND_SERVICES = SERVICES.filter((s): s is Exclude<ServiceName, 'gateway'> => s !== 'gateway');
export type BackendServiceName = (typeof BACKEND_SERVICES)[number];
