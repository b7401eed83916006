import type { DataSource } from 'typeorm';
import { AmqpConnection, amqpSocketOptions, createRedisClient, openDataSource, postgresTls } from '@esim/platform';
import { TEST_AMQP_URL } from '@esim/testing';
import { SERVER_NAME, TlsServers } from './support/tls-servers';

/** Settles `p` into what a caller sees: 'connected', or the error's code (else its message). */
const outcome = (p: Promise<unknown>) =>
  p.then(
    () => 'connected',
    (err: { code?: string; message?: string }) => err.code ?? err.message,
  );
/** Node's refusals of a certificate: not from a trusted CA, or not for the name asked. */
const UNTRUSTED = /SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE|DEPTH_ZERO_SELF_SIGNED_CERT|self.signed|unable to verify/i;
const WRONG_NAME = /ERR_TLS_CERT_ALTNAME_INVALID|does not match certificate's altnames/i;

/**
 * TLS to Postgres, Redis and RabbitMQ through the product's own connection factories and settings
 * (DB_TLS*, REDIS_TLS_*, AMQP_TLS_*; libs/platform/src/config/backing-services.ts), against real
 * TLS servers on loopback with a test CA (support/tls-servers.ts): the server's certificate is
 * verified against the CA bundle given and for the hostname given; another CA's bundle or another
 * name is refused, never connected unverified.
 */
describe('TLS to the backing services', () => {
  const servers = new TlsServers();
  afterAll(() => servers.stop());

  describe('Postgres (a throwaway cluster with ssl=on)', () => {
    let port: number;
    const opened: DataSource[] = [];
    beforeAll(async () => {
      port = await servers.postgres();
    }, 60_000);
    afterAll(async () => {
      for (const ds of opened) await ds.destroy();
    });
    const open = (caFile: string, servername?: string) =>
      openDataSource({ url: `postgres://postgres@127.0.0.1:${port}/esim`, schema: 'tls_check', entities: [], migrations: [], ssl: postgresTls({ DB_TLS: true, DB_TLS_CA_FILE: caFile, DB_TLS_SERVERNAME: servername }) });

    it('connects over TLS, verified against the CA and for the hostname given', async () => {
      const ds = await open(servers.caFile, SERVER_NAME);
      opened.push(ds);
      expect(await ds.query('SELECT ssl, version FROM pg_stat_ssl WHERE pid = pg_backend_pid()')).toEqual([{ ssl: true, version: expect.stringMatching(/^TLSv1\.[23]$/) }]);
    });

    it('refuses a server whose certificate another CA signed, and one named otherwise', async () => {
      expect(await outcome(open(servers.otherCaFile, SERVER_NAME))).toMatch(UNTRUSTED);
      expect(await outcome(open(servers.caFile, 'elsewhere.test'))).toMatch(WRONG_NAME);
      // Without DB_TLS_SERVERNAME the URL's host is what the certificate must name: 127.0.0.1 is not.
      expect(await outcome(open(servers.caFile))).toMatch(WRONG_NAME);
    });
  });

  describe('Redis (redis-server on its TLS port)', () => {
    let port: number;
    beforeAll(async () => {
      port = await servers.redis();
    }, 30_000);
    /** PING through a client of createRedisClient; it tries once, so a refusal is an answer, not a retry loop. */
    async function ping(caFile: string, servername?: string): Promise<string> {
      const redis = createRedisClient({ REDIS_URL: `rediss://127.0.0.1:${port}`, REDIS_TLS_CA_FILE: caFile, REDIS_TLS_SERVERNAME: servername, REDIS_SENTINEL_MASTER: 'mymaster' }, { lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 });
      // The TLS refusal is told on 'error'; connect() then only says the connection closed.
      const errors: Error[] = [];
      redis.on('error', (err: Error) => errors.push(err));
      try {
        await redis.connect().catch((err: Error) => Promise.reject(errors[0] ?? err));
        return await redis.ping();
      } finally {
        redis.disconnect();
      }
    }

    it('connects over TLS, verified against the CA and for the hostname given', async () => {
      expect(await ping(servers.caFile, SERVER_NAME)).toBe('PONG');
    });

    it('refuses a server whose certificate another CA signed, and one named otherwise', async () => {
      expect(await outcome(ping(servers.otherCaFile, SERVER_NAME))).toMatch(UNTRUSTED);
      expect(await outcome(ping(servers.caFile, 'elsewhere.test'))).toMatch(WRONG_NAME);
    });
  });

  describe('RabbitMQ (amqps:// through a TLS front to the test broker)', () => {
    let url: string;
    beforeAll(async () => {
      const broker = new URL(TEST_AMQP_URL);
      const port = await servers.amqpFront(broker);
      url = `amqps://${broker.username}:${broker.password}@127.0.0.1:${port}`;
    });
    /** A connection of AmqpConnection with the platform's socket options: its first 'connect' or 'connectFailed'. */
    async function connect(caFile: string, servername?: string): Promise<string> {
      const conn = new AmqpConnection(url, 'tls-check', amqpSocketOptions({ AMQP_URL: url, AMQP_TLS_CA_FILE: caFile, AMQP_TLS_SERVERNAME: servername }));
      try {
        return await new Promise<string>((resolve, reject) => {
          conn.manager.once('connect', () => resolve('connected'));
          conn.manager.once('connectFailed', ({ err }: { err: Error & { code?: string } }) => reject(err));
        }).then(async (connected) => {
          // A real AMQP session: the broker answers a declaration on it.
          const ch = conn.manager.createChannel({ setup: (c: { checkQueue(q: string): Promise<unknown> }) => c.checkQueue('amq.rabbitmq.reply-to') });
          await ch.waitForConnect();
          await ch.close();
          return connected;
        });
      } finally {
        await conn.close();
      }
    }

    it('connects over TLS, verified against the CA and for the hostname given', async () => {
      expect(await connect(servers.caFile, SERVER_NAME)).toBe('connected');
    });

    it('refuses a server whose certificate another CA signed, and one named otherwise', async () => {
      expect(await outcome(connect(servers.otherCaFile, SERVER_NAME))).toMatch(UNTRUSTED);
      expect(await outcome(connect(servers.caFile, 'elsewhere.test'))).toMatch(WRONG_NAME);
    });
  });
});
