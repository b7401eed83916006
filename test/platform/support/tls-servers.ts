import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { Client } from 'pg';
import { waitFor } from '@esim/testing';

/** The name the servers' certificate carries (and the only one). */
export const SERVER_NAME = 'backing.test';

/**
 * Real TLS servers for the backing services, on loopback, with certificates made for the test by
 * openssl: a CA, a server certificate it signs for SERVER_NAME only, and a second CA that signed
 * nothing the servers show. The product's connection factories (libs/platform/src/config/
 * backing-services.ts) are pointed at them with its own TLS settings.
 */
export class TlsServers {
  readonly dir = mkdtempSync(path.join(os.tmpdir(), 'esim-tls-'));
  readonly caFile = path.join(this.dir, 'ca.pem');
  readonly otherCaFile = path.join(this.dir, 'other-ca.pem');
  private readonly certFile = path.join(this.dir, 'server.pem');
  private readonly keyFile = path.join(this.dir, 'server.key');
  private readonly children: ChildProcess[] = [];
  private readonly servers: net.Server[] = [];

  constructor() {
    const ssl = (...args: string[]) => execFileSync('openssl', args, { cwd: this.dir, stdio: 'pipe' });
    const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
    ssl('req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '1', '-subj', '/CN=esim test CA');
    ssl('req', '-x509', ...ec, '-keyout', 'other-ca.key', '-out', 'other-ca.pem', '-days', '1', '-subj', '/CN=another CA');
    ssl('req', ...ec, '-keyout', 'server.key', '-out', 'server.csr', '-subj', `/CN=${SERVER_NAME}`);
    writeFileSync(path.join(this.dir, 'server.ext'), `subjectAltName=DNS:${SERVER_NAME}\nbasicConstraints=CA:FALSE\n`);
    ssl('x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.pem', '-days', '1', '-extfile', 'server.ext');
  }

  /** redis-server listening on TLS only; its port. */
  async redis(): Promise<number> {
    const port = await freePort();
    const child = spawn(
      'redis-server',
      ['--port', '0', '--tls-port', String(port), '--bind', '127.0.0.1', '--tls-cert-file', this.certFile, '--tls-key-file', this.keyFile, '--tls-ca-cert-file', this.caFile, '--tls-auth-clients', 'no', '--save', '', '--appendonly', 'no', '--dir', this.dir],
      { stdio: 'ignore' },
    );
    this.children.push(child);
    await waitFor(() => isListening(port), { timeoutMs: 15_000, intervalMs: 100, what: 'redis-server with TLS' });
    return port;
  }

  /**
   * A throwaway Postgres cluster (initdb, then postgres with ssl=on) in the tmp dir; its port.
   * Postgres refuses to run as root: as root, the cluster runs as the `postgres` user.
   */
  async postgres(): Promise<number> {
    const bin = postgresBin();
    const data = path.join(this.dir, 'pgdata');
    const owner = process.getuid?.() === 0 ? postgresUser() : undefined;
    if (owner) for (const f of [this.dir, this.certFile, this.keyFile]) chownSync(f, owner.uid, owner.gid);
    const as = owner ? { uid: owner.uid, gid: owner.gid } : {};
    execFileSync(path.join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-N', '-E', 'UTF8'], { ...as, stdio: 'pipe' });
    const port = await freePort();
    const child = spawn(
      path.join(bin, 'postgres'),
      ['-D', data, '-p', String(port), '-k', this.dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'ssl=on', '-c', `ssl_cert_file=${this.certFile}`, '-c', `ssl_key_file=${this.keyFile}`, '-c', 'fsync=off', '-c', 'shared_buffers=16MB'],
      { ...as, stdio: 'ignore' },
    );
    this.children.push(child);
    await waitFor(
      async () => {
        const c = new Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/postgres` });
        await c.connect();
        await c.end();
        return true;
      },
      { timeoutMs: 20_000, intervalMs: 200, what: 'the TLS Postgres' },
    );
    return port;
  }

  /**
   * A TLS front for the local RabbitMQ (`upstream`): it completes the handshake with the test's
   * certificate, then carries the AMQP session to the broker, so that an `amqps://` client talks
   * to a real broker through TLS. A second RabbitMQ node with its own TLS listener would need its
   * own Erlang distribution set-up; the broker behind the front is the one the tests use anyway.
   */
  async amqpFront(upstream: URL): Promise<number> {
    const server = tls.createServer({ cert: readFileSync(this.certFile), key: readFileSync(this.keyFile) }, (socket) => {
      const broker = net.connect(Number(upstream.port || 5672), upstream.hostname);
      socket.pipe(broker).pipe(socket);
      const end = () => {
        socket.destroy();
        broker.destroy();
      };
      for (const s of [socket, broker]) {
        s.on('error', end);
        s.on('close', end);
      }
    });
    server.on('tlsClientError', () => undefined); // a client that refuses our certificate: what the tests expect
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.servers.push(server);
    return (server.address() as net.AddressInfo).port;
  }

  async stop(): Promise<void> {
    for (const s of this.servers) s.close();
    await Promise.all(
      this.children.map(
        (c) =>
          new Promise<void>((resolve) => {
            if (c.exitCode !== null || c.signalCode !== null) return resolve();
            c.once('exit', () => resolve());
            // Postgres' fast shutdown; redis-server stops on SIGTERM too.
            c.kill('SIGINT');
          }),
      ),
    );
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** The newest installed Postgres' bin directory (Debian's /usr/lib/postgresql/<version>/bin), else the PATH's. */
function postgresBin(): string {
  const base = '/usr/lib/postgresql';
  const versions = existsSync(base) ? readdirSync(base).filter((v) => existsSync(path.join(base, v, 'bin/initdb'))) : [];
  if (versions.length > 0) return path.join(base, versions.sort((a, b) => Number(b) - Number(a))[0], 'bin');
  return path.dirname(execFileSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' }).trim());
}

function postgresUser(): { uid: number; gid: number } {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  if (!line) throw new Error('running as root, and there is no postgres user to run the throwaway cluster as');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function isListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
  });
}
