// CPU time used by each part of the product on this machine (Linux /proc), so a benchmark can say
// where the time per operation went: each Node service, Postgres backends by the service that holds
// their connection, RabbitMQ and Redis. Written here because it is a /proc reader of a few lines
// and the attribution of Postgres backends to services is this project's own.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

export const SERVICES = ['gateway', 'identity', 'rewards', 'esim', 'payments', 'notifications', 'webhooks'];
export const TICK_MS = 10; // USER_HZ is 100 on Linux

/** The fields of /proc/<pid>/stat after the command name (which may hold spaces and parentheses). */
export function statFields(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** Clock ticks a process has run, in user and kernel mode (utime + stime), from its stat fields. */
const cpuTicks = (fields) => Number(fields[11]) + Number(fields[12]);

/**
 * CPU (ms) of this process and of the children it has waited for (a load generator such as wrk,
 * pgbench): utime + stime + cutime + cstime of /proc/self/stat; this process only where there is
 * no /proc.
 */
export function ownCpuMs() {
  const own = process.cpuUsage();
  let children = 0;
  try {
    const fields = statFields('self');
    children = (Number(fields[13]) + Number(fields[14])) * TICK_MS;
  } catch {
    // Not Linux.
  }
  return (own.user + own.system) / 1000 + children;
}

/**
 * The whole machine's CPU so far, in ticks (first line of /proc/stat): busy (user, nice, system,
 * irq, softirq; not idle, iowait or the host's steal) and the kernel's part of it (system, irq,
 * softirq). Null where there is no /proc. Beside pgbench it is the one way to price a transaction
 * with pgbench's own client and every backend in it; the idle product's background is in it too.
 */
export function machineCpu() {
  try {
    const [user, nice, system, , , irq, softirq] = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    return { busy: user + nice + system + irq + softirq, kernel: system + irq + softirq };
  } catch {
    return null;
  }
}

/** Ms of the machine's CPU per operation between two machineCpu() readings, and the kernel's share of it. */
export function machineCpuPerOperation(before, after, operations) {
  if (!before || !after || !(operations > 0)) return null;
  const busy = after.busy - before.busy;
  return { ms: (busy * TICK_MS) / operations, kernelShare: busy > 0 ? (after.kernel - before.kernel) / busy : NaN };
}

/** CPU (ms) one process has used so far: utime + stime of /proc/<pid>/stat; NaN where there is no /proc. */
export function processCpuMs(pid) {
  try {
    return cpuTicks(statFields(pid)) * TICK_MS;
  } catch {
    return NaN;
  }
}

function processes() {
  const out = [];
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      const ticks = cpuTicks(statFields(pid));
      if (cmd) out.push({ pid: Number(pid), cmd, ticks });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

const kind = (cmd) =>
  SERVICES.find((s) => cmd.includes(`services/${s}/`)) ??
  (cmd.includes('beam') ? 'rabbitmq' : cmd.includes('redis-server') ? 'redis' : cmd.startsWith('postgres') ? 'postgres' : null);

/** The processes this machine runs for `part` ('rewards', 'webhooks', 'rabbitmq', …), as cpuSnapshot names them. */
export function pidsOf(part) {
  return processes()
    .filter((p) => kind(p.cmd) === part)
    .map((p) => p.pid);
}

/** Which Node process holds each local port connected to Postgres (ss), and each backend's client port (pg_stat_activity). */
function backendOwners(databaseUrl) {
  const owners = new Map();
  try {
    // The server's port from the URL the bench was given: a Postgres beside another one listens elsewhere.
    const serverPort = new URL(databaseUrl).port || '5432';
    const ss = execFileSync('ss', ['-tnpH', 'state', 'established', 'dport', `= :${serverPort}`], { encoding: 'utf8' });
    const portOwner = new Map();
    for (const m of ss.matchAll(new RegExp(`:(\\d+)\\s+\\S+:${serverPort}\\s.*?pid=(\\d+)`, 'g'))) portOwner.set(Number(m[1]), Number(m[2]));
    const rows = execFileSync('psql', [databaseUrl, '-Atc', 'SELECT pid, client_port FROM pg_stat_activity WHERE client_port IS NOT NULL'], { encoding: 'utf8' });
    for (const line of rows.trim().split('\n')) {
      const [pid, port] = line.split('|').map(Number);
      if (portOwner.has(port)) owners.set(pid, portOwner.get(port));
    }
  } catch {
    // no ss or psql: Postgres is then counted as one
  }
  return owners;
}

/** CPU ticks so far by part: 'webhooks', 'pg:webhooks' (its Postgres backends), 'postgres' (the rest), … */
export function cpuSnapshot(databaseUrl) {
  if (!fs.existsSync('/proc/self/stat')) return null;
  const procs = processes();
  const byPid = new Map(procs.map((p) => [p.pid, p]));
  const owners = backendOwners(databaseUrl);
  const ticks = {};
  for (const p of procs) {
    let part = kind(p.cmd);
    if (!part) continue;
    if (part === 'postgres' && owners.has(p.pid)) part = `pg:${kind(byPid.get(owners.get(p.pid))?.cmd ?? '') ?? 'other'}`;
    ticks[part] = (ticks[part] ?? 0) + p.ticks;
  }
  return ticks;
}

/** Milliseconds of CPU per operation by part between two snapshots (parts that used some), largest first. */
export function cpuPerOperation(before, after, operations) {
  if (!before || !after) return [];
  return Object.keys(after)
    .filter((part) => before[part] !== undefined)
    .map((part) => ({ part, ms: ((after[part] - before[part]) * TICK_MS) / operations }))
    .filter((r) => r.ms > 0.0005)
    .sort((a, b) => b.ms - a.ms);
}
