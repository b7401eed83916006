#!/usr/bin/env node
// Prints the rabbitmqctl commands that give each service a RabbitMQ user of its own, with
// permissions on its own queues only (docs/operations.md, "Broker users"). What each service
// touches comes from its port in libs/contracts (built output), so the grants follow the wire:
//
//   node scripts/broker-users.mjs [--vhost /] [--exchange esim.events] --prefix q. > broker-users.sh
//   ESIM_GATEWAY_BROKER_PASSWORD=… ESIM_IDENTITY_BROKER_PASSWORD=… sh broker-users.sh
//
// Passwords are read from the environment when the commands run, never written here.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { SERVICE_PORTS } = require(path.join(root, 'libs/contracts/dist/ports/index.js'));

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? '') : fallback;
};
const vhost = arg('vhost', '/');
const exchange = arg('exchange', 'esim.events');
const prefix = arg('prefix', '');

const re = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const any = (names) => `^(${names.map(re).join('|')})$`;
const sh = (s) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The queues a service declares and consumes: its RPC queue, its event queue and dead-letter queue. */
function ownQueues(name, port) {
  const queues = [];
  if (port.answers.length > 0) queues.push(`${prefix}${name}.rpc`);
  if (port.consumes.length > 0) queues.push(`${prefix}${name}.events`, `${prefix}${name}.events.dlq`);
  return queues;
}
const consumers = Object.entries(SERVICE_PORTS).filter(([, p]) => p.consumes.length > 0).map(([n]) => n);

// Permissions name resources, not kinds: a queue named like the events exchange (the esim
// service's `esim.events` without a prefix) would be readable by every service.
const allQueues = Object.entries(SERVICE_PORTS).flatMap(([n, p]) => ownQueues(n, p));
if (allQueues.includes(exchange)) {
  process.stderr.write(`the queue ${exchange} has the events exchange's name: set a QUEUE_PREFIX (e.g. --prefix q. and QUEUE_PREFIX=q.) so permissions can tell them apart\n`);
  process.exit(1);
}

const lines = ['#!/bin/sh', 'set -eu', `rabbitmqctl add_vhost ${sh(vhost)} 2>/dev/null || true`];
for (const [name, port] of Object.entries(SERVICE_PORTS)) {
  const user = `esim-${name}`;
  const own = ownQueues(name, port);
  // The gateway runs the dead-letter console: it reads every consumer's dead-letter queue and
  // sends messages back to their own queues (docs/admin.md, "Dead letters").
  const deadLetters = name === 'gateway' ? consumers.flatMap((c) => [`${prefix}${c}.events`, `${prefix}${c}.events.dlq`]) : [];
  const resources = [...new Set([...own, ...deadLetters])];
  // configure: declaring its queues and the events exchange; write: publishing events to the
  // exchange, RPC requests and dead letters through the default exchange (RabbitMQ checks the
  // default exchange as one resource, amq.default: it cannot tell queues apart there), binding its
  // queue; read: consuming its queues, binding to the exchange, RPC answers on direct reply-to.
  const configure = any([...resources, exchange]);
  const write = any([...resources, exchange, 'amq.default']);
  const read = any([...resources, exchange, 'amq.rabbitmq.reply-to']);
  const password = `ESIM_${name.toUpperCase()}_BROKER_PASSWORD`;
  lines.push(
    '',
    `# ${name}: answers ${port.answers.length} RPCs, consumes ${port.consumes.length} events, publishes ${port.publishes.length}`,
    `rabbitmqctl add_user ${user} "$${password}" 2>/dev/null || rabbitmqctl change_password ${user} "$${password}"`,
    `rabbitmqctl set_permissions -p ${sh(vhost)} ${user} ${sh(configure)} ${sh(write)} ${sh(read)}`,
    // Events a service publishes are named after it (`<service>.<event>.v<n>`): it may publish no other.
    `rabbitmqctl set_topic_permissions -p ${sh(vhost)} ${user} ${sh(exchange)} ${sh(`^${re(name)}\\.`)} ${sh('.*')}`,
  );
}
process.stdout.write(`${lines.join('\n')}\n`);
