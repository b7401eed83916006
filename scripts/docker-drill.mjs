#!/usr/bin/env node
// The container drill: proves the Dockerfile and docker-compose.yml on a machine that reaches no
// image registry (only Debian's packages and the npm registry). As root:
//
//   1. a Docker engine: Debian's docker.io, dockerd started in the background if none answers;
//   2. base images from Debian packages (debootstrap): one with this machine's Node.js and npm,
//      one with PostgreSQL, RabbitMQ and Redis;
//   3. the product image from the Dockerfile, FROM the local Node base (BASE_IMAGE);
//   4. PostgreSQL, RabbitMQ, Redis and every service as its own container on a private network,
//      each service with the environment docker-compose.yml gives it (and compose's health check);
//   5. through the gateway container only: sign up (the code read from the notifications log),
//      open a sandbox offer wall, complete an offer, and wait for the points and the task.
//
//   node scripts/docker-drill.mjs [--keep] [--rebuild]
//     --keep     leave the containers (and dockerd) running afterwards
//     --rebuild  rebuild the Debian base images (they are reused otherwise)
//   DRILL_WORK (default /var/tmp/esim-drill), DRILL_PORT (default 3900: the gateway on 127.0.0.1),
//   DEBIAN_MIRROR (default http://deb.debian.org/debian), DEBIAN_SUITE (default bookworm).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const YAML = require('yaml');

const args = new Set(process.argv.slice(2));
const KEEP = args.has('--keep');
const REBUILD = args.has('--rebuild');
const WORK = process.env.DRILL_WORK ?? '/var/tmp/esim-drill';
const PORT = Number(process.env.DRILL_PORT ?? 3900);
const MIRROR = process.env.DEBIAN_MIRROR ?? 'http://deb.debian.org/debian';
const SUITE = process.env.DEBIAN_SUITE ?? 'bookworm';
const P = 'esim-drill';
const NODE_IMAGE = `${P}/node:local`;
const INFRA_IMAGE = `${P}/infra:local`;
const APP_IMAGE = `${P}/app:local`;
const SANDBOXES_IMAGE = `${P}/sandboxes:local`;
const NETWORK = `${P}-net`;
const PUBLIC_URL = `http://localhost:${PORT}`;
/** Started in this order; the provider emulators first, the gateway last, as compose's depends_on has it. */
const SERVICES = ['sandboxes', 'identity', 'rewards', 'esim', 'payments', 'notifications', 'webhooks', 'gateway'];
/** The image each runs: the product image, or the emulators' own (the Dockerfile's `sandboxes` target). */
const imageOf = (name) => (name === 'sandboxes' ? SANDBOXES_IMAGE : APP_IMAGE);

const started = Date.now();
const stamp = () => `${((Date.now() - started) / 1000).toFixed(0).padStart(4)}s`;
const say = (msg) => console.log(`\n== [${stamp()}] ${msg}`);
const note = (msg) => console.log(`   [${stamp()}] ${msg}`);
const summary = [];

/** Runs a command; output to the terminal unless `capture`. Throws on a non-zero exit. */
function sh(cmd, argv, { capture = false, input, env } = {}) {
  const res = spawnSync(cmd, argv, {
    stdio: [input === undefined ? 'ignore' : 'pipe', capture ? 'pipe' : 'inherit', capture ? 'pipe' : 'inherit'],
    input,
    env: env ?? process.env,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (res.status !== 0) throw new Error(`${cmd} ${argv.join(' ')} exited ${res.status}${capture ? `\n${res.stderr}` : ''}`);
  return capture ? res.stdout : '';
}
const quiet = (cmd, argv) => spawnSync(cmd, argv, { stdio: 'ignore' }).status === 0;
const has = (cmd) => quiet('sh', ['-c', `command -v ${cmd}`]);
const imageExists = (image) => quiet('docker', ['image', 'inspect', image]);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` until it returns a value; `fatal` (checked first) ends the wait with its error. */
async function until(what, check, timeoutMs, fatal = () => undefined) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const problem = fatal();
    if (problem) throw new Error(problem);
    const value = await check().catch(() => undefined);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000}s waiting for ${what}`);
    await sleep(1000);
  }
}

// --- 1. the engine ---------------------------------------------------------------------------

let ourDockerd = null;
async function engine() {
  say('Docker engine');
  if (process.getuid?.() !== 0) throw new Error('run the drill as root (debootstrap, chroot and dockerd need it)');
  const missing = [['dockerd', 'docker.io'], ['debootstrap', 'debootstrap']].filter(([cmd]) => !has(cmd)).map(([, pkg]) => pkg);
  if (missing.length) {
    note(`apt-get install ${missing.join(' ')}`);
    sh('apt-get', ['update', '-qq']);
    sh('apt-get', ['install', '-y', '-qq', ...missing], { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  }
  if (!quiet('docker', ['info'])) {
    fs.mkdirSync(WORK, { recursive: true });
    const log = fs.openSync(path.join(WORK, 'dockerd.log'), 'a');
    ourDockerd = spawn('dockerd', [], { stdio: ['ignore', log, log], detached: true });
    ourDockerd.unref();
    note(`started dockerd (pid ${ourDockerd.pid}, log ${WORK}/dockerd.log)`);
    await until('dockerd', async () => quiet('docker', ['info']), 60_000);
  }
  note(sh('docker', ['version', '--format', 'engine {{.Server.Version}}, client {{.Client.Version}}'], { capture: true }).trim());
}

// --- 2. base images from Debian packages ---------------------------------------------------------

function debianRoot() {
  const dir = path.join(WORK, `debian-${SUITE}`);
  if (fs.existsSync(path.join(dir, '.complete')) && !REBUILD) return dir;
  note(`debootstrap ${SUITE} (minbase) from ${MIRROR}`);
  fs.rmSync(dir, { recursive: true, force: true });
  sh('debootstrap', ['--variant=minbase', '--include=ca-certificates', SUITE, dir, MIRROR], { capture: true });
  // Nothing in a chroot or an image build may start a service.
  fs.writeFileSync(path.join(dir, 'usr/sbin/policy-rc.d'), '#!/bin/sh\nexit 101\n', { mode: 0o755 });
  fs.writeFileSync(path.join(dir, '.complete'), '');
  return dir;
}

function copyTree(from, to) {
  fs.rmSync(to, { recursive: true, force: true });
  sh('cp', ['-a', from, to]);
  fs.rmSync(path.join(to, '.complete'), { force: true });
}

/** `docker import` of a root file system, with the PATH an image would set. */
function importImage(dir, image, cmd, env = []) {
  const changes = ['PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', ...env].map((e) => `--change 'ENV ${e}'`).join(' ') + ` --change 'CMD ${JSON.stringify(cmd)}'`;
  sh('bash', ['-o', 'pipefail', '-c', `tar -C "$1" --exclude='./proc/*' --exclude='./sys/*' --exclude='./dev/*' -c . | docker import ${changes} - "$2"`, 'import', dir, image], {
    capture: true,
  });
}

function nodeBase() {
  if (imageExists(NODE_IMAGE) && !REBUILD) return note(`${NODE_IMAGE} exists (--rebuild makes it again)`);
  const dir = path.join(WORK, 'rootfs-node');
  copyTree(debianRoot(), dir);
  // This machine's Node.js and npm, where the official image has them.
  const node = fs.realpathSync(process.execPath);
  const npmDir = fs.realpathSync(path.join(path.dirname(require.resolve('npm/package.json', { paths: [execFileSync('npm', ['root', '-g'], { encoding: 'utf8' }).trim()] }))));
  sh('install', ['-D', '-m', '0755', node, path.join(dir, 'usr/local/bin/node')]);
  sh('mkdir', ['-p', path.join(dir, 'usr/local/lib/node_modules')]);
  sh('cp', ['-a', npmDir, path.join(dir, 'usr/local/lib/node_modules/npm')]);
  fs.symlinkSync('../lib/node_modules/npm/bin/npm-cli.js', path.join(dir, 'usr/local/bin/npm'));
  fs.symlinkSync('../lib/node_modules/npm/bin/npx-cli.js', path.join(dir, 'usr/local/bin/npx'));
  // A machine whose TLS goes through an intercepting proxy trusts its CA through
  // NODE_EXTRA_CA_CERTS: the image trusts the same, or npm install cannot reach the registry.
  if (process.env.NODE_EXTRA_CA_CERTS) {
    sh('install', ['-D', '-m', '0644', process.env.NODE_EXTRA_CA_CERTS, path.join(dir, 'usr/local/share/drill-ca.crt')]);
  }
  // The official image's unprivileged user.
  sh('chroot', [dir, 'useradd', '--uid', '1000', '--create-home', '--shell', '/bin/bash', 'node']);
  sh('chroot', [dir, '/usr/local/bin/node', '--version'], { capture: true });
  fs.rmSync(path.join(dir, 'var/cache/apt/archives'), { recursive: true, force: true });
  importImage(dir, NODE_IMAGE, ['node'], process.env.NODE_EXTRA_CA_CERTS ? ['NODE_EXTRA_CA_CERTS=/usr/local/share/drill-ca.crt'] : []);
  note(`${NODE_IMAGE}: Debian ${SUITE} + Node ${process.version} (${node})`);
}

const INFRA_ENTRYPOINTS = {
  // The database and role docker-compose.yml's postgres image creates from POSTGRES_*.
  'drill-postgres': `#!/bin/sh
set -e
PG=/usr/lib/postgresql/$(ls /usr/lib/postgresql)/bin
DATA=$(ls -d /var/lib/postgresql/*/main)
CONF=$(ls -d /etc/postgresql/*/main)/postgresql.conf
run() { su postgres -s /bin/sh -c "$*"; }
run "$PG/pg_ctl -D $DATA -o '-c config_file=$CONF -c listen_addresses=' -w start"
run "psql -qc \\"CREATE ROLE esim LOGIN SUPERUSER PASSWORD 'esim'\\"" && run "createdb -O esim esim_rewards"
run "$PG/pg_ctl -D $DATA -w stop"
exec su postgres -s /bin/sh -c "exec $PG/postgres -D $DATA -c config_file=$CONF"
`,
  'drill-redis': `#!/bin/sh
exec redis-server --bind 0.0.0.0 --protected-mode no --save '' --appendonly no
`,
  'drill-rabbitmq': `#!/bin/sh
exec rabbitmq-server
`,
};

function infraBase() {
  if (imageExists(INFRA_IMAGE) && !REBUILD) return note(`${INFRA_IMAGE} exists (--rebuild makes it again)`);
  const dir = path.join(WORK, 'rootfs-infra');
  copyTree(debianRoot(), dir);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  sh('mount', ['-t', 'proc', 'proc', path.join(dir, 'proc')]);
  try {
    sh('chroot', [dir, 'apt-get', 'update', '-qq'], { env });
    sh('chroot', [dir, 'apt-get', 'install', '-y', '-qq', '--no-install-recommends', 'postgresql', 'redis-server', 'rabbitmq-server'], { env, capture: true });
  } finally {
    sh('umount', [path.join(dir, 'proc')]);
  }
  const pgConf = fs.readdirSync(path.join(dir, 'etc/postgresql'))[0];
  fs.appendFileSync(path.join(dir, `etc/postgresql/${pgConf}/main/pg_hba.conf`), 'host all all 0.0.0.0/0 scram-sha-256\n');
  // The package picks another port when this host's own Postgres holds 5432 during the install.
  fs.writeFileSync(path.join(dir, `etc/postgresql/${pgConf}/main/conf.d/drill.conf`), "port = 5432\nlisten_addresses = '*'\n");
  // The user docker-compose.yml gives RabbitMQ (RABBITMQ_DEFAULT_USER/PASS), allowed off loopback.
  fs.writeFileSync(path.join(dir, 'etc/rabbitmq/rabbitmq.conf'), 'default_user = esim\ndefault_pass = esim\nloopback_users = none\n');
  for (const [name, body] of Object.entries(INFRA_ENTRYPOINTS)) fs.writeFileSync(path.join(dir, 'usr/local/bin', name), body, { mode: 0o755 });
  fs.rmSync(path.join(dir, 'var/cache/apt/archives'), { recursive: true, force: true });
  fs.rmSync(path.join(dir, 'var/lib/apt/lists'), { recursive: true, force: true });
  importImage(dir, INFRA_IMAGE, ['sh']);
  note(`${INFRA_IMAGE}: Debian ${SUITE} + postgresql, rabbitmq-server, redis-server`);
}

// --- 3. the product image ----------------------------------------------------------------------

function productImage() {
  say(`product image: docker build --build-arg BASE_IMAGE=${NODE_IMAGE}`);
  const t = Date.now();
  sh('docker', ['build', '--build-arg', `BASE_IMAGE=${NODE_IMAGE}`, '-t', APP_IMAGE, root], { env: { ...process.env, DOCKER_BUILDKIT: '0' } });
  sh('docker', ['build', '--build-arg', `BASE_IMAGE=${NODE_IMAGE}`, '--target', 'sandboxes', '-t', SANDBOXES_IMAGE, root], { env: { ...process.env, DOCKER_BUILDKIT: '0' } });
  // The production image carries no emulator: sandboxes/ never reaches its stage.
  if (quiet('docker', ['run', '--rm', '--entrypoint', 'test', APP_IMAGE, '-e', '/app/sandboxes'])) throw new Error(`${APP_IMAGE} contains sandboxes/`);
  const size = sh('docker', ['image', 'inspect', '--format', '{{.Size}}', APP_IMAGE], { capture: true }).trim();
  summary.push(`product image ${APP_IMAGE}: ${(Number(size) / 1e6).toFixed(0)} MB, built in ${((Date.now() - t) / 1000).toFixed(0)}s`);
  note(summary.at(-1));
}

// --- 4. containers -----------------------------------------------------------------------------

/** `${VAR:-default}` as compose resolves it, with the drill's own values for its variables. */
function interpolate(value, vars) {
  return String(value).replace(/\$\{([A-Z0-9_]+)(?::?-([^}]*))?\}/g, (_, name, fallback) => vars[name] ?? process.env[name] ?? fallback ?? '');
}

/** Each service's environment and health check, read from docker-compose.yml. */
function composeServices() {
  const compose = YAML.parse(fs.readFileSync(path.join(root, 'docker-compose.yml'), 'utf8'), { merge: true });
  const vars = { PUBLIC_URL };
  return Object.fromEntries(
    SERVICES.map((name) => {
      const svc = compose.services[name];
      if (!svc) throw new Error(`docker-compose.yml has no service ${name}`);
      const env = Object.fromEntries(Object.entries(svc.environment ?? {}).map(([k, v]) => [k, interpolate(v, vars)]));
      return [name, { env, health: svc.healthcheck?.test }];
    }),
  );
}

const container = (name) => `${P}-${name}`;
const running = new Set();

function run(name, image, argv, { alias = name, env = {}, publish } = {}) {
  const flags = ['run', '-d', '--name', container(name), '--hostname', alias, '--network', NETWORK, '--network-alias', alias];
  for (const [k, v] of Object.entries(env)) flags.push('-e', `${k}=${v}`);
  if (publish) flags.push('-p', publish);
  sh('docker', [...flags, image, ...argv], { capture: true });
  running.add(name);
}

function cleanup() {
  for (const name of [...SERVICES, 'postgres', 'rabbitmq', 'redis']) quiet('docker', ['rm', '-f', container(name)]);
  quiet('docker', ['network', 'rm', NETWORK]);
}

async function infrastructure() {
  say('PostgreSQL, RabbitMQ and Redis containers (Debian packages)');
  cleanup();
  sh('docker', ['network', 'create', NETWORK], { capture: true });
  run('postgres', INFRA_IMAGE, ['drill-postgres']);
  run('rabbitmq', INFRA_IMAGE, ['drill-rabbitmq']);
  run('redis', INFRA_IMAGE, ['drill-redis']);
  const ready = {
    postgres: ['pg_isready', '-q', '-h', '127.0.0.1'],
    redis: ['redis-cli', 'ping'],
    rabbitmq: ['rabbitmq-diagnostics', '-q', 'check_port_connectivity'],
  };
  await Promise.all(
    Object.entries(ready).map(([name, cmd]) =>
      until(`${name} ready`, async () => quiet('docker', ['exec', container(name), ...cmd]), 120_000).then(() => note(`${name} ready`)),
    ),
  );
}

/** The one-shot step compose runs before the services: each service's database role (db-roles). */
function databaseRoles() {
  const compose = YAML.parse(fs.readFileSync(path.join(root, 'docker-compose.yml'), 'utf8'), { merge: true });
  const step = compose.services['db-roles'];
  if (!step) throw new Error('docker-compose.yml has no db-roles service');
  say('database roles (the db-roles step of docker-compose.yml)');
  const flags = ['run', '--rm', '--network', NETWORK];
  for (const [k, v] of Object.entries(step.environment ?? {})) flags.push('-e', `${k}=${interpolate(v, { PUBLIC_URL })}`);
  note(sh('docker', [...flags, APP_IMAGE, ...step.command], { capture: true }).trim());
}

async function services() {
  databaseRoles();
  say(`service containers (${SERVICES.join(', ')}), environment from docker-compose.yml`);
  const defs = composeServices();
  for (const name of SERVICES) {
    const env = { ...defs[name].env };
    // No mail catcher image here: notifications writes each email to its outbox and its log.
    if (name === 'notifications') env.SMTP_HOST = '';
    run(name, imageOf(name), [], { env, publish: name === 'gateway' ? `127.0.0.1:${PORT}:3000` : undefined });
  }
  const t = Date.now();
  await Promise.all(
    SERVICES.map(async (name) => {
      const test = defs[name].health;
      if (!Array.isArray(test) || test[0] !== 'CMD') throw new Error(`${name}: docker-compose.yml has no CMD health check`);
      const exited = () =>
        sh('docker', ['inspect', '--format', '{{.State.Running}}', container(name)], { capture: true }).trim() === 'true' ? undefined : `${name} exited`;
      await until(`${name} healthy`, async () => quiet('docker', ['exec', container(name), ...test.slice(1)]), 180_000, exited);
      note(`${name} healthy (its compose health check)`);
    }),
  );
  summary.push(`${SERVICES.length} service containers healthy ${((Date.now() - t) / 1000).toFixed(0)}s after start`);
}

const logs = (name) => {
  const res = spawnSync('docker', ['logs', container(name)], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return `${res.stdout}${res.stderr}`;
};

// --- 5. the user's journey, through the gateway only ---------------------------------------------

const base = `http://127.0.0.1:${PORT}`;
const jar = new Map();
async function http(method, route, { json, form, redirect = 'manual' } = {}) {
  const headers = { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') };
  let body;
  if (json !== undefined) [headers['content-type'], body] = ['application/json', JSON.stringify(json)];
  if (form !== undefined) [headers['content-type'], body] = ['application/x-www-form-urlencoded', new URLSearchParams(form).toString()];
  const res = await fetch(`${base}${route}`, { method, headers, body, redirect });
  for (const c of res.headers.getSetCookie()) {
    const [pair] = c.split(';');
    const i = pair.indexOf('=');
    jar.set(pair.slice(0, i), pair.slice(i + 1));
  }
  const text = await res.text();
  let data = text;
  try {
    data = JSON.parse(text);
  } catch {
    // not JSON: keep the text (the wall page)
  }
  return { status: res.status, headers: res.headers, data };
}
function expectStatus(res, status, what) {
  if (res.status !== status) throw new Error(`${what}: HTTP ${res.status} ${typeof res.data === 'string' ? res.data.slice(0, 300) : JSON.stringify(res.data)}`);
  return res.data;
}

async function journey() {
  say(`sign up and complete a sandbox offer through the gateway container (${base})`);
  const t = Date.now();
  // NODE_ENV=production (compose): the API reference is not served.
  expectStatus(await http('GET', '/api/docs/openapi.json'), 404, 'the API reference in production');
  const email = `drill-${Date.now()}@example.test`;
  const password = 'drill password 1';
  const name = 'Drill';
  expectStatus(await http('POST', '/api/register', { json: { email, password, name, acceptTerms: true, acceptPrivacy: true, locale: 'en' } }), 200, 'register');
  note(`registered ${email}`);

  const code = await until('the verification code in the notifications log', async () => {
    const line = logs('notifications').split('\n').find((l) => l.includes(`email to ${email}`));
    return line && /\b(\d{6})\b/.exec(line.replace(email, ''))?.[1];
  }, 60_000);
  note(`code ${code} read from the notifications container's log`);

  const verified = expectStatus(await http('POST', '/api/verify-email', { json: { email, code, password, name } }), 200, 'verify-email');
  note(`account ${verified.user.id} created and signed in (cookie ${[...jar.keys()].join(', ')})`);
  const pointsAfterSignup = await until('the sign-up bonus', async () => {
    const user = expectStatus(await http('GET', '/api/user'), 200, 'user');
    return user.points > 0 ? user.points : undefined;
  }, 60_000);
  note(`points after sign-up: ${pointsAfterSignup}`);

  const { walls } = expectStatus(await http('GET', '/api/offerwalls'), 200, 'offerwalls');
  const wall = walls.find((w) => w.sandbox && w.embed.kind === 'iframe');
  if (!wall) throw new Error(`no sandbox wall to open: ${JSON.stringify(walls)}`);
  const page = expectStatus(await http('GET', wall.embed.url), 200, `${wall.id} wall page`);
  // The first offer of the wall: its id (the form's hidden offerId) and the points it pays.
  const item = page.split('<li>').find((li) => li.includes('name="offerId"')) ?? '';
  const offer = /name="offerId" value="([^"]+)"/.exec(item)?.[1];
  const offerPoints = Number(/<b>\+(\d+) MB<\/b>/.exec(item)?.[1]);
  if (!offer || !offerPoints) throw new Error(`no offer on the ${wall.id} wall page`);
  note(`opened the ${wall.name} sandbox wall; completing offer ${offer} (+${offerPoints} MB)`);

  const done = await http('POST', `/sandbox/offerwalls/${wall.id}/complete`, { form: { uid: wall.uid, offerId: offer } });
  if (done.status !== 303 || !String(done.headers.get('location')).includes('notice=completed')) {
    throw new Error(`completing the offer: HTTP ${done.status} → ${done.headers.get('location')}`);
  }
  note(`the wall posted back through the gateway: ${done.headers.get('location')}`);

  const [user, tasks] = await until('the credited points', async () => {
    const u = expectStatus(await http('GET', '/api/user'), 200, 'user');
    const t = expectStatus(await http('GET', '/api/tasks'), 200, 'tasks');
    return u.points > pointsAfterSignup && t.length > 0 ? [u, t] : undefined;
  }, 60_000);
  const credited = user.points - pointsAfterSignup;
  if (credited !== offerPoints) throw new Error(`credited ${credited} points for a ${offerPoints} MB offer`);
  // The emulated wall posts to OFFERWALLS_POSTBACK_URL (the gateway), which streams it to webhooks
  // naming the caller in X-Forwarded-For: the recorded source is the webhooks container itself,
  // not loopback, when the postback really went through the gateway container.
  const delivery = sh('docker', ['exec', container('postgres'), 'su', 'postgres', '-c',
    `psql -d esim_rewards -Atc "SELECT status || ' ' || source_ip FROM webhooks.webhook_transactions WHERE user_id = '${user.id}'"`], { capture: true }).trim();
  const webhooksIp = sh('docker', ['inspect', '-f', '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}', container('webhooks')], { capture: true }).trim();
  if (delivery !== `accepted ${webhooksIp}`) throw new Error(`the postback was not recorded as delivered through the gateway: "${delivery}" (webhooks is ${webhooksIp})`);
  note(`webhook_transactions: ${delivery} (the webhooks container, as the gateway named it: the postback went through the gateway)`);
  note(`points now ${user.points} (+${credited}); task ${tasks[0].provider}/${tasks[0].taskType} ${tasks[0].pointsEarned} points`);
  summary.push(
    `journey ${((Date.now() - t) / 1000).toFixed(1)}s: sign-up (code from the log) → ${pointsAfterSignup} points → ${wall.id} sandbox offer ${offer} → ${user.points} points, ${tasks.length} task`,
  );
}

// --- main --------------------------------------------------------------------------------------

let failed = false;
try {
  await engine();
  say('base images from Debian packages (debootstrap)');
  nodeBase();
  infraBase();
  productImage();
  await infrastructure();
  await services();
  await journey();
} catch (err) {
  failed = true;
  console.error(`\nDRILL FAILED: ${err.message}`);
  for (const name of running) console.error(`\n--- last log lines of ${container(name)}\n${logs(name).split('\n').slice(-15).join('\n')}`);
} finally {
  if (!KEEP) {
    cleanup();
    if (ourDockerd) {
      process.kill(ourDockerd.pid, 'SIGTERM');
      note('stopped the dockerd this drill started');
    }
  } else note(`--keep: containers ${P}-* left running; the app is at ${base}`);
}
say(`drill ${failed ? 'FAILED' : 'passed'} in ${((Date.now() - started) / 1000).toFixed(0)}s`);
for (const line of summary) console.log(`   ${line}`);
process.exit(failed ? 1 : 0);
