import type { PlatformConfig } from './platform-config';

/** RabbitMQ's built-in user; amqplib uses it when the URL names none. */
const DEFAULT_BROKER_USER = 'guest';

/** Hosts that are this machine: RabbitMQ itself lets `guest` in only from them (loopback_users). */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Why the broker credentials cannot run in production, or null. Every broker client can set the
 * acting user of the RPCs it sends, so in production each service connects as a user of its own
 * with permissions on its own queues only (docs/operations.md, "Broker users"); the default
 * `guest`, which every RabbitMQ knows, is for a broker on the same machine (a developer's, or
 * the tests'), as RabbitMQ itself has it.
 */
export function brokerCredentialProblem(config: Pick<PlatformConfig, 'NODE_ENV' | 'AMQP_URL'>): string | null {
  if (config.NODE_ENV !== 'production') return null;
  let url: URL;
  try {
    url = new URL(config.AMQP_URL);
  } catch {
    return 'AMQP_URL: not a URL';
  }
  const user = decodeURIComponent(url.username);
  if ((user === '' || user === DEFAULT_BROKER_USER) && !LOOPBACK.has(url.hostname)) {
    return `AMQP_URL: the broker's default ${DEFAULT_BROKER_USER} user is for a broker on this machine; in production each service connects as its own user (docs/operations.md, "Broker users")`;
  }
  return null;
}
