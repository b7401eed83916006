#!/usr/bin/env node
// Runs every backend service and the gateway from their built output, as one command.
// Output lines are prefixed with the service name; if any service exits, all are stopped.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const services = ['identity', 'rewards', 'esim', 'payments', 'notifications', 'gateway'];
const children = new Map();
let stopping = false;

for (const name of services) {
  const entry = path.join(root, 'services', name, 'dist', 'main.js');
  if (!existsSync(entry)) {
    console.error(`${entry} is missing: run "npm run build" first (or "npm start", which builds).`);
    process.exit(1);
  }
  const child = spawn(process.execPath, [entry], { cwd: root, env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
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
