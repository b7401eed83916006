import { SANDBOXES_DEFAULT_URL } from '@esim/contracts';
import { z } from 'zod';
import { envBoolean, envInt } from './load-config';

/**
 * Variables every service reads. Each has a default that works on a developer machine with
 * Postgres, RabbitMQ and Redis on their standard local ports.
 */
export const platformConfigSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development').describe('Runtime mode; production refuses sandbox providers unless ALLOW_SANDBOX_IN_PRODUCTION is set.'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info').describe('pino log level.'),
  LOG_FORMAT: z.enum(['auto', 'json', 'pretty']).default('auto').describe('json: one JSON object a line (for log collectors); pretty: coloured, readable lines (pino-pretty); auto: pretty when stdout is a terminal and NODE_ENV is not production (npm start asks for pretty when it runs in a terminal).'),
  DATABASE_URL: z.string().url().default('postgres://postgres@127.0.0.1:5432/esim_rewards').describe('Postgres database shared by all services; each service owns one schema in it. Created if missing.'),
  DB_SCHEMA: z.string().regex(/^[a-z_][a-z0-9_]*$/).optional().describe("Schema the service owns (default: the service's name)."),
  DB_POOL_SIZE: envInt(10, 1).describe('Connections in the service\'s pool.'),
  DB_POOL_MIN: envInt(0, 0).describe("Connections the pool keeps open however long they sit unused (at most DB_POOL_SIZE); the others close after 10 s unused. A request after a quiet spell then finds a warm connection instead of opening one: a new connection is a new Postgres backend, whose first statements load its catalog caches and are prepared again (the webhooks service keeps 3 by default)."),
  // Left to the server (Postgres ships it off), the kernel writes a backend's dirty pages back all at once, and the WAL flush every answer waits for queues behind that burst (bench/postbacks.bench.mjs, target-rate step).
  DB_BACKEND_FLUSH_AFTER_KB: z.coerce.number().int().min(0).max(2048).default(256).describe("Postgres' backend_flush_after for the service's connections, in kB (0: the server's own setting, which Postgres ships off). A backend that has written this much of its data pages to the kernel asks for them to go to disk now, so they do not pile up in the page cache until the kernel writes them back all at once, on the disk every commit's WAL flush waits for."),
  DB_MIGRATION_LOCK_TIMEOUT_MS: envInt(10_000, 0).describe("Postgres' lock_timeout for the migrations a service runs at start-up, in ms (0: wait forever). A migration that waits longer for a table's lock (a long transaction of a replica still running the previous release) gives up: its transaction rolls back, the service exits 1 with a message naming the setting, and is restarted to try again; meanwhile every other query on that table does not queue behind the waiting ALTER. Keep it well under the startup probe's window (deploy/k8s)."),
  DB_MIGRATION_STATEMENT_TIMEOUT_MS: envInt(60_000, 0).describe("Postgres' statement_timeout for the start-up migrations, in ms (0: none). A migration statement that runs longer is cancelled and rolled back, and the service exits 1: long backfills belong outside start-up (docs/operations.md, \"Schema changes during a rolling deploy\")."),
  SHUTDOWN_DRAIN_MS: envInt(0, 0).describe("On SIGTERM, how long the process keeps serving with its readiness failing (503 `draining`) before it closes its listeners, so that the balancer in front (a Kubernetes Service's endpoints) stops sending it requests first; the RPC server stops taking requests at once. deploy/k8s sets 5000 (with a preStop pause before it); 0 (the default, for a developer's Ctrl-C): no wait."),
  SHUTDOWN_TIMEOUT_MS: envInt(15_000, 0).describe('After the drain, how long the requests in hand may take to finish before their connections are closed; the event consumers then finish what they hold. The pod\'s terminationGracePeriodSeconds must cover the preStop pause, SHUTDOWN_DRAIN_MS, this and the longest provider call (scripts/validate-deploy.mjs checks it).'),
  DB_TLS: envBoolean(false).describe("Connect to Postgres over TLS, verifying the server's certificate (against DB_TLS_CA_FILE, else Node's public roots) and its hostname (DB_TLS_SERVERNAME, else the URL's host). Managed Postgres: on. Never unverified."),
  DB_TLS_CA_FILE: z.string().optional().describe("PEM file of the CA bundle Postgres' certificate chains to (a mounted Secret, e.g. /etc/esim/tls/postgres-ca.pem)."),
  DB_TLS_SERVERNAME: z.string().optional().describe("The hostname Postgres' certificate must name, when DATABASE_URL reaches it by another name (an ExternalName Service, a PgBouncer in front)."),
  AMQP_URL: z.string().default('amqp://guest:guest@127.0.0.1:5672').describe('RabbitMQ URL for RPC and integration events.'),
  AMQP_TLS_CA_FILE: z.string().optional().describe('With an `amqps://` AMQP_URL (TLS, always verified): PEM file of the CA bundle the broker\'s certificate chains to (default: Node\'s public roots).'),
  AMQP_TLS_SERVERNAME: z.string().optional().describe("With an `amqps://` AMQP_URL: the hostname the broker's certificate must name, when the URL reaches it by another name."),
  EVENTS_EXCHANGE: z.string().default('esim.events').describe('Durable topic exchange carrying integration events.'),
  QUEUE_PREFIX: z.string().default('').describe('Prefix for every queue name (isolates test runs and environments sharing a broker).'),
  EVENT_DELIVERY_LIMIT: envInt(5, 1).describe('Deliveries of one event to a consumer before it is dead-lettered.'),
  // At 0, a burst is applied in many small groups, each with its own transaction and announcements, which costs more CPU a credit (bench/postbacks.bench.mjs).
  EVENT_GROUP_SPACING_MS: envInt(250, 0).describe('For an event applied in groups (a handler with handleAll, e.g. offer-wall credits in rewards): while such events keep arriving, at least this long between the starts of two groups, unless what waits fills a group, so each group (one transaction, one set of announcements) holds what arrived meanwhile. An event after a quiet spell is applied at once. 0: a group takes what arrived while the previous ones committed.'),
  RPC_TIMEOUT_MS: envInt(5000, 100).describe('How long the gateway waits for a service to answer a request.'),
  // The poll only catches what no wake-up announced, so it can be slow: every pass costs an idle service CPU (bench/idle.bench.mjs).
  OUTBOX_POLL_MS: envInt(2000, 10).describe('Fallback poll interval of the outbox relay: every outbox write and every reconnection to the broker wake it at once, so the poll only catches retries that came due and rows another process wrote.'),
  OUTBOX_BATCH_SIZE: envInt(1000, 1).describe('Outbox rows the relay publishes per pass (one transaction, one broker message per routing key and 200 events). Under a burst of postbacks, passes of 100 left thousands of accepted deliveries waiting in the ingestion service\'s outbox (bench/postbacks.bench.mjs).'),
  OUTBOX_MAX_ATTEMPTS: envInt(10, 1).describe('Tries (with backoff, about 17 minutes for 10) before an event no queue is bound to is parked in the outbox: logged with its type and left for operators (docs/architecture.md, "Parked events").'),
  INBOX_TTL_HOURS: envInt(24 * 7, 1).describe('How long a process without a database (the gateway) remembers an applied event in its Redis inbox.'),
  INBOX_RETENTION_DAYS: envInt(30, 1).describe('Inbox rows (the ids of applied events, which turn a redelivery into a plain ack) are deleted after this many days (docs/accounts.md, "Retention").'),
  RETENTION_SWEEP_MS: envInt(3_600_000, 1000).describe('How often each replica runs the service\'s retention jobs (inbox rows, and the service\'s own: docs/accounts.md, "Retention"); each job runs under an advisory lock, on one replica at a time.'),
  OUTBOX_RETENTION_HOURS: envInt(24, 1).describe('Published outbox rows are deleted after this many hours (some events carry a code or link in clear).'),
  REDIS_URL: z.string().default('redis://127.0.0.1:6379').describe('Redis for sessions, rate limits and BullMQ.'),
  REDIS_TLS_CA_FILE: z.string().optional().describe("With a `rediss://` REDIS_URL (TLS, always verified; the Sentinels too when REDIS_SENTINELS is set): PEM file of the CA bundle Redis' certificate chains to (default: Node's public roots)."),
  REDIS_TLS_SERVERNAME: z.string().optional().describe("With a `rediss://` REDIS_URL: the hostname Redis' certificate must name, when it is reached by another name."),
  REDIS_SENTINELS: z.string().regex(/^\s*[^\s,:]+(:\d+)?\s*(,\s*[^\s,:]+(:\d+)?\s*)*$/).optional().describe('Redis Sentinel: comma-separated host:port of the Sentinels (port 26379 by default). Set, every Redis client asks them for the primary of REDIS_SENTINEL_MASTER and follows it through a failover; REDIS_URL then gives only the password, database number and TLS (`rediss://`), its host is not used.'),
  REDIS_SENTINEL_MASTER: z.string().default('mymaster').describe('The name the Sentinels know the primary by (REDIS_SENTINELS).'),
  REDIS_SENTINEL_PASSWORD: z.string().optional().describe("The Sentinels' own password, when they require one (REDIS_SENTINELS)."),
  REDIS_PREFIX: z.string().default('esim:').describe('Prefix of every Redis key.'),
  HEALTH_PORT: z.coerce.number().int().min(0).optional().describe("HTTP port of a backend service's /health/live, /health/ready and /metrics, internal (default: the service's own port, 3101-3105; 0 picks a free port). The gateway and the ingestion service, whose HTTP ports are public, serve them on OPS_PORT instead."),
  METRICS_QUEUE_REFRESH_MS: envInt(10_000, 50).describe("How often the depths of the service's event queue and dead-letter queue are read from the broker for /metrics (event_consumer_lag_messages, event_consumer_dead_letter_messages); a scrape reads the last result and never calls the broker."),
  METRICS_TOKEN: z.string().min(16).optional().describe('When set, GET /metrics answers only `Authorization: Bearer <token>` (Prometheus: `authorization.credentials`). Every process serves /metrics on an internal port only (the gateway and the ingestion service on OPS_PORT); the token is a second lock for a network that other workloads share.'),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().url().optional().describe('OpenTelemetry collector (OTLP over HTTP, e.g. http://otel-collector:4318): traces are exported to <endpoint>/v1/traces. Unset: tracing is off and costs nothing (the standard OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, OTEL_SERVICE_NAME and OTEL_TRACES_SAMPLER are honoured too). See docs/observability.md.'),
  ALLOW_SANDBOX_IN_PRODUCTION: envBoolean(false).describe('Lets production run a provider sandbox (demo deployments only).'),
});
export type PlatformConfig = z.infer<typeof platformConfigSchema>;

/**
 * The provider emulators (the sandboxes process, sandboxes/; `npm start` runs it when a provider has
 * no credentials): a service whose provider has no credentials sends it there instead, through the
 * same adapter and settings as to the real provider. For the services that have a provider.
 */
export const sandboxesUrlSetting = z
  .string()
  .url()
  .default(SANDBOXES_DEFAULT_URL)
  .describe('Where the provider emulators run (the sandboxes process): the default base URL of every provider that has no credentials.');
