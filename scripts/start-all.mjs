#!/usr/bin/env node
// Runs every backend service and the gateway from their built output, as one command.
// Output lines are prefixed with the service name. If any service exits, all are stopped: a
// service no longer exits on a broker or database drop (it reconnects and says so in its log),
// so an exit means a real failure (bad configuration, a bug), and a half-running product that
// hides it would be worse for the person running `npm start` than a clear stop.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const contracts = path.join(root, 'libs/contracts/dist/ports/services.js');
if (!existsSync(contracts)) {
  console.error(`${contracts} is missing: run "npm run build" first (or "npm start", which builds).`);
  process.exit(1);
}
// The one list of services (libs/contracts/src/ports/services.ts).
const { SERVICES: services } = createRequire(import.meta.url)(contracts);
const children = new Map();
let stopping = false;
// Readable coloured logs for a person at a terminal; JSON when the output goes to a file or collector.
const env = { ...process.env };
if (!env.LOG_FORMAT && process.stdout.isTTY && env.NODE_ENV !== 'production') env.LOG_FORMAT = 'pretty';

for (const name of services) {
  const entry = path.join(root, 'services', name, 'dist', 'main.js');
  if (!existsSync(entry)) {
    console.error(`${entry} is missing: run "npm run build" first (or "npm start", which builds).`);
    process.exit(1);
  }
  const child = spawn(process.execPath, [entry], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const prefix = `${name.padEnd(13)}|`;
  for (const stream of [child.stdout, child.stderr]) {
    let buffered = '';
    stream.on('data', (chunk) => {
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop();
      for (const line of lines) process.stdout.write(`${prefix} ${line}\n`);
    });
  }
  child.on('exit', (code, signal) => {
    children.delete(name);
    if (!stopping) {
      console.error(`${prefix} exited (${signal ?? code}); stopping everything`);
      stop(code || 1);
    } else if (children.size === 0) {
      process.exit(process.exitCode ?? 0);
    }
  });
  children.set(name, child);
}

console.log(`starting ${services.join(', ')} — the app will be at ${process.env.PUBLIC_URL ?? 'http://localhost:3000'}`);

function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  process.exitCode = code;
  for (const child of children.values()) child.kill('SIGTERM');
  setTimeout(() => process.exit(code), 15_000).unref();
}
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
