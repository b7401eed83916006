import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import YAML from 'yaml';

/** `node scripts/validate-deploy.mjs`: the offline check of docker-compose.yml and deploy/k8s (CI runs it). */
const root = path.resolve(__dirname, '../..');
const run = promisify(execFile);

async function validate(env: Record<string, string> = {}): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['scripts/validate-deploy.mjs'], { cwd: root, env: { ...process.env, ...env } });
    return { code: 0, out: stdout + stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout + e.stderr };
  }
}

type Doc = Record<string, any>;
let tmp: string;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'deploy-files-'));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** A copy of docker-compose.yml with `change` applied (anchors resolved, as compose reads it). */
function composeWith(change: (compose: Doc) => void): string {
  const compose = YAML.parse(fs.readFileSync(path.join(root, 'docker-compose.yml'), 'utf8'), { merge: true }) as Doc;
  change(compose);
  const file = path.join(tmp, `compose-${Math.random().toString(36).slice(2)}.yml`);
  fs.writeFileSync(file, YAML.stringify(compose, { aliasDuplicateObjects: false }));
  return file;
}

/** A copy of deploy/k8s with `change` applied to every object of every file. */
function k8sWith(change: (object: Doc, file: string) => Doc | null): string {
  const dir = fs.mkdtempSync(path.join(tmp, 'k8s-'));
  for (const file of fs.readdirSync(path.join(root, 'deploy/k8s'))) {
    const docs = YAML.parseAllDocuments(fs.readFileSync(path.join(root, 'deploy/k8s', file), 'utf8')).map((d) => d.toJS() as Doc);
    const kept = docs.map((d) => change(d, file)).filter((d): d is Doc => d !== null);
    fs.writeFileSync(path.join(dir, file), kept.map((d) => YAML.stringify(d)).join('---\n'));
  }
  return dir;
}

describe('the deployment files', () => {
  it('pass: compose and Kubernetes schemas, every service, addresses, probes, autoscalers, and each service accepts its configuration', async () => {
    const { code, out } = await validate();
    expect(out).toContain('Dockerfile: FROM ${BASE_IMAGE} (a build argument), every workspace installed');
    expect(out).toContain('docker-compose.yml: valid against the Compose Specification schema');
    expect(out).toContain('docker-compose.yml: every service and the provider emulators run, health-checked, with their addresses set and a configuration they accept');
    expect(out).toMatch(/deploy\/k8s: \d+ objects valid against the Kubernetes schemas/);
    expect(out).toContain('HPAs for gateway, webhooks, rewards');
    expect(out).toContain('deploy/k8s: one database role per service: each reads its DATABASE_URL from a Secret of its own, no two share a role, the gateway gets none, and the db-roles Job makes them all');
    expect(out).toContain('deploy/k8s: rollouts drain: a preStop pause, SHUTDOWN_DRAIN_MS, grace periods covering the longest work in hand, no replicas under an HPA');
    expect(out).toContain('deploy/k8s: probes and Prometheus scrapes target the health ports (gateway 3100, webhooks 3108), never a public port, and no Ingress reaches an operator port');
    expect(code).toBe(0);
  }, 60_000);

  it('fail for a Dockerfile with a fixed base image or a workspace left out of the install', async () => {
    const file = path.join(tmp, 'Dockerfile');
    const dockerfile = fs.readFileSync(path.join(root, 'Dockerfile'), 'utf8');
    fs.writeFileSync(file, dockerfile.replace('COPY services/webhooks/package.json services/webhooks/\n', '').replace(/^FROM \$\{BASE_IMAGE\}$/m, 'FROM node:20'));
    const { code, out } = await validate({ DOCKERFILE: file });
    expect(code).toBe(1);
    expect(out).toContain('COPY services/webhooks/package.json services/webhooks/ must come before RUN npm install');
    expect(out).toContain('every stage must start FROM ${BASE_IMAGE}');
  }, 60_000);

  it('fail for a compose file whose containers would call themselves, or would not start', async () => {
    const file = composeWith((c) => {
      delete c.services.gateway.environment.WEBHOOKS_URL;
      c.services.sandboxes.environment.STRIPE_WEBHOOK_URL = 'http://localhost:3000/webhooks/stripe';
      c.services.sandboxes.environment.OFFERWALLS_POSTBACK_URL = 'http://gatway:3000';
      delete c.services.payments.environment.SANDBOXES_URL;
      delete c.services.identity.environment.VERIFICATION_CODE_SECRET;
      delete c.services.notifications;
      c.services.rewards.ports = 3102;
    });
    const { code, out } = await validate({ COMPOSE_FILE: file });
    expect(code).toBe(1);
    expect(out).toContain('gateway: WEBHOOKS_URL (internal address) is not set');
    expect(out).toContain('sandboxes: STRIPE_WEBHOOK_URL=http://localhost:3000/webhooks/stripe points at loopback, which inside a container is sandboxes itself');
    expect(out).toContain('sandboxes: OFFERWALLS_POSTBACK_URL=http://gatway:3000: no compose service is named gatway');
    expect(out).toContain('payments: SANDBOXES_URL (sandbox address) is not set');
    expect(out).toMatch(/identity: the identity service would refuse to start: .*VERIFICATION_CODE_SECRET/);
    expect(out).toContain('no notifications service');
    expect(out).toMatch(/compose schema: \/services\/rewards\/ports must be array/);
  }, 60_000);

  it('fail for manifests without probes, requests, autoscaler or secrets, or outside the Kubernetes schema', async () => {
    const dir = k8sWith((o, file) => {
      const container = o.spec?.template?.spec?.containers?.[0];
      if (o.kind === 'Deployment' && o.metadata.name === 'rewards') delete container.readinessProbe;
      if (o.kind === 'Deployment' && o.metadata.name === 'identity') container.resources.requests.cpu = 'lots';
      if (o.kind === 'Deployment' && o.metadata.name === 'esim') delete container.resources.requests;
      if (o.kind === 'Deployment' && o.metadata.name === 'payments') container.envFrom.push({ secretRef: { name: 'esim-paypal' } });
      if (o.kind === 'HorizontalPodAutoscaler' && o.metadata.name === 'webhooks') return null;
      if (o.kind === 'PodDisruptionBudget' && o.metadata.name === 'notifications') return null;
      if (o.kind === 'ConfigMap' && o.metadata.name === 'esim-gateway') delete o.data.WEBHOOKS_URL;
      if (file === 'secrets.example.yaml' && o.metadata.name === 'esim-stripe-webhook') delete o.stringData.STRIPE_WEBHOOK_SECRET;
      return o;
    });
    const { code, out } = await validate({ DEPLOY_DIR: dir });
    expect(code).toBe(1);
    expect(out).toContain('rewards: readinessProbe must GET /health/ready on 3102');
    expect(out).toMatch(/Deployment\/identity: Kubernetes schema: .*requests\/cpu/);
    expect(out).toContain('esim: resource requests (cpu and memory) are required');
    expect(out).toContain('payments: Secret (secrets.example.yaml) esim-paypal does not exist');
    expect(out).toContain('webhooks: needs a HorizontalPodAutoscaler');
    expect(out).toContain('notifications: no PodDisruptionBudget covers its pods');
    expect(out).toContain('gateway: WEBHOOKS_URL (internal address) is not set');
    expect(out).toMatch(/webhooks: the webhooks service would refuse to start: .*STRIPE_WEBHOOK_SECRET is required/);
  }, 60_000);

  it('fail when a probe or a Prometheus scrape targets a public port, or an Ingress could reach an operator port', async () => {
    const dir = k8sWith((o) => {
      const container = o.spec?.template?.spec?.containers?.[0];
      // The gateway probed on its public port, as before the operator port existed.
      if (o.kind === 'Deployment' && o.metadata.name === 'gateway') container.readinessProbe.httpGet.port = 'http';
      if (o.kind === 'Deployment' && o.metadata.name === 'gateway') container.startupProbe.httpGet.port = 3000;
      // The ingestion service scraped on the port providers reach.
      if (o.kind === 'Deployment' && o.metadata.name === 'webhooks') o.spec.template.metadata.annotations['prometheus.io/port'] = '3106';
      if (o.kind === 'Deployment' && o.metadata.name === 'rewards') delete o.spec.template.metadata.annotations;
      // A Service port for the gateway's operator port, and the Ingress routing to it.
      if (o.kind === 'Service' && o.metadata.name === 'gateway') o.spec.ports.push({ name: 'ops', port: 3100, targetPort: 'ops' });
      if (o.kind === 'Ingress') o.spec.rules[0].http.paths.push({ path: '/ops', pathType: 'Prefix', backend: { service: { name: 'gateway', port: { name: 'ops' } } } });
      return o;
    });
    const { code, out } = await validate({ DEPLOY_DIR: dir });
    expect(code).toBe(1);
    expect(out).toContain('gateway: readinessProbe must GET /health/ready on 3100');
    expect(out).toContain('gateway: readinessProbe targets the public port 3000: probe the operator port 3100');
    expect(out).toContain('gateway: startupProbe targets the public port 3000: probe the operator port 3100');
    expect(out).toContain('webhooks: the Prometheus scrape targets the public port 3106: scrape the operator port 3108');
    expect(out).toContain('rewards: the pods must be scraped: prometheus.io/scrape: "true"');
    expect(out).toContain('Ingress/gateway: the Ingress could reach the operator port 3100 of gateway (Service gateway port ops): route only public ports');
    expect(out).not.toContain('probes and Prometheus scrapes target the health ports');
  }, 60_000);

  it('fail for a compose health check that asks the public port of the gateway or the ingestion service', async () => {
    const file = composeWith((c) => {
      c.services.gateway.healthcheck.test = ['CMD', 'node', '-e', "fetch('http://127.0.0.1:3000/health/ready')"];
    });
    const { code, out } = await validate({ COMPOSE_FILE: file });
    expect(code).toBe(1);
    expect(out).toContain('gateway: the health check must ask /health/ready on port 3100 (OPS_PORT; 3000 is public)');
  }, 60_000);

  it('fail for manifests whose services share a broker user or use guest', async () => {
    const dir = k8sWith((o, file) => {
      if (file === 'secrets.example.yaml' && o.metadata.name === 'esim-broker-payments') o.stringData.AMQP_URL = 'amqp://esim-esim:CHANGE-ME@rabbitmq:5672';
      if (file === 'secrets.example.yaml' && o.metadata.name === 'esim-broker-rewards') o.stringData.AMQP_URL = 'amqp://guest:guest@rabbitmq:5672';
      return o;
    });
    const { code, out } = await validate({ DEPLOY_DIR: dir });
    expect(code).toBe(1);
    expect(out).toContain('esim, payments share the broker user esim-esim: each service needs its own');
    expect(out).toContain("rewards: AMQP_URL must name the service's own broker user, not guest");
  }, 60_000);

  it('fail for manifests whose services share a database Secret or role, or whose roles step misses one', async () => {
    const dir = k8sWith((o, file) => {
      // payments reads esim's database Secret; rewards' Secret names webhooks' role; the gateway gets a login.
      if (file === 'payments.yaml' && o.kind === 'Deployment') {
        const refs = o.spec.template.spec.containers[0].envFrom as Array<{ secretRef?: { name: string } }>;
        for (const r of refs) if (r.secretRef?.name === 'esim-db-payments') r.secretRef.name = 'esim-db-esim';
      }
      if (file === 'secrets.example.yaml' && o.metadata.name === 'esim-db-rewards') o.stringData.DATABASE_URL = 'postgres://esim_webhooks:CHANGE-ME@postgres:5432/esim_rewards';
      if (file === 'secrets.example.yaml' && o.metadata.name === 'esim-infra') o.stringData.DATABASE_URL = 'postgres://esim:CHANGE-ME@postgres:5432/esim_rewards';
      if (file === 'db-roles.yaml') o.spec.template.spec.containers[0].env = o.spec.template.spec.containers[0].env.filter((e: { name: string }) => e.name !== 'ESIM_IDENTITY_DATABASE_URL');
      return o;
    });
    const { code, out } = await validate({ DEPLOY_DIR: dir });
    expect(code).toBe(1);
    expect(out).toContain('esim, payments share the database Secret esim-db-esim: each service needs its own');
    expect(out).toContain('rewards, webhooks share the database role esim_webhooks: each service needs its own');
    expect(out).toContain(' gateway: gets a DATABASE_URL (from esim-infra)');
    expect(out).toContain(" Job/db-roles: does not read esim-db-identity: identity's role would not be made");
  }, 60_000);

  it('fail for manifests whose rollouts would drop requests: replicas under an HPA, no preStop, no drain, a grace period shorter than a provider call', async () => {
    const dir = k8sWith((o, file) => {
      if (o.kind !== 'Deployment') return o;
      const container = o.spec.template.spec.containers[0];
      if (file === 'gateway.yaml') o.spec.replicas = 3;
      if (file === 'identity.yaml') delete container.lifecycle;
      if (file === 'payments.yaml') o.spec.template.spec.terminationGracePeriodSeconds = 30;
      if (file === 'esim.yaml') container.env.push({ name: 'SHUTDOWN_DRAIN_MS', value: '0' });
      return o;
    });
    const { code, out } = await validate({ DEPLOY_DIR: dir });
    expect(code).toBe(1);
    expect(out).toContain('gateway: replicas: 3 on a Deployment its HorizontalPodAutoscaler scales');
    expect(out).toContain('identity: needs a preStop pause');
    expect(out).toContain('payments: terminationGracePeriodSeconds 30 is shorter than the preStop pause, SHUTDOWN_DRAIN_MS and the longest work in hand (60000 ms) need: at least 75');
    expect(out).toContain('esim: SHUTDOWN_DRAIN_MS must be set');
  }, 60_000);
});
