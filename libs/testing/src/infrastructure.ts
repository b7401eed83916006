import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { StartedTestContainer } from 'testcontainers';

/** The servers tests use, each named by an environment variable. */
export const TEST_URL_VARIABLES = ['TEST_DATABASE_URL', 'TEST_AMQP_URL', 'TEST_REDIS_URL'] as const;
export type TestUrlVariable = (typeof TEST_URL_VARIABLES)[number];

/** The local servers on their standard ports (what CI and a developer machine run). */
export const LOCAL_TEST_URLS: Record<TestUrlVariable, string> = {
  TEST_DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/esim_test',
  TEST_AMQP_URL: 'amqp://guest:guest@127.0.0.1:5672',
  TEST_REDIS_URL: 'redis://127.0.0.1:6379',
};

export type UrlSource = 'given' | 'container' | 'local';

export interface InfrastructureDeps {
  /** Whether a Docker engine looks reachable (a socket or DOCKER_HOST); checked only when a URL is missing. */
  dockerEngine(env: NodeJS.ProcessEnv): boolean;
  /** Starts containers for the missing servers and answers their URLs (testcontainers). */
  startContainers(missing: TestUrlVariable[]): Promise<{ urls: Partial<Record<TestUrlVariable, string>>; containers: StartedTestContainer[] }>;
}

/**
 * Decides where tests find Postgres, RabbitMQ and Redis, and writes the URLs into `env` (Jest's
 * workers inherit it): a TEST_*_URL that is set is used as given, and then nothing looks for
 * Docker; a missing one gets a testcontainers container when a Docker engine is reachable (and
 * can start it), else the local server on its standard port.
 */
export async function provideTestInfrastructure(env: NodeJS.ProcessEnv = process.env, deps: InfrastructureDeps = dockerDeps) {
  const sources = {} as Record<TestUrlVariable, UrlSource>;
  const missing = TEST_URL_VARIABLES.filter((v) => !env[v]);
  for (const v of TEST_URL_VARIABLES) if (env[v]) sources[v] = 'given';
  let containers: StartedTestContainer[] = [];
  if (missing.length > 0 && env.TESTCONTAINERS !== 'off' && deps.dockerEngine(env)) {
    const started = await deps.startContainers(missing);
    containers = started.containers;
    for (const v of missing) {
      const url = started.urls[v];
      if (url) {
        env[v] = url;
        sources[v] = 'container';
      }
    }
  }
  for (const v of missing) {
    if (!env[v]) {
      env[v] = LOCAL_TEST_URLS[v];
      sources[v] = 'local';
    }
  }
  return { sources, containers };
}

const dockerDeps: InfrastructureDeps = {
  dockerEngine(env) {
    if (env.DOCKER_HOST) return true;
    const home = os.homedir();
    return ['/var/run/docker.sock', path.join(home, '.docker/run/docker.sock'), path.join(home, '.testcontainers.properties')].some((p) => existsSync(p));
  },
  async startContainers(missing) {
    // Loaded only here: with every URL given (CI), the library is never even imported.
    const { GenericContainer, Wait, getContainerRuntimeClient } = await import('testcontainers');
    try {
      await getContainerRuntimeClient();
    } catch {
      return { urls: {}, containers: [] }; // a socket without a working engine: use the local servers
    }
    const start: Record<TestUrlVariable, () => Promise<[string, StartedTestContainer]>> = {
      async TEST_DATABASE_URL() {
        const c = await new GenericContainer('postgres:16-alpine')
          .withEnvironment({ POSTGRES_HOST_AUTH_METHOD: 'trust' })
          .withExposedPorts(5432)
          .withWaitStrategy(Wait.forLogMessage(/database system is ready to accept connections/, 2))
          .start();
        return [`postgres://postgres@${c.getHost()}:${c.getMappedPort(5432)}/esim_test`, c];
      },
      async TEST_AMQP_URL() {
        // RabbitMQ's guest user may only connect from inside the container: use another.
        const c = await new GenericContainer('rabbitmq:3.13-alpine')
          .withEnvironment({ RABBITMQ_DEFAULT_USER: 'test', RABBITMQ_DEFAULT_PASS: 'test' })
          .withExposedPorts(5672)
          .withWaitStrategy(Wait.forLogMessage(/Server startup complete/))
          .start();
        return [`amqp://test:test@${c.getHost()}:${c.getMappedPort(5672)}`, c];
      },
      async TEST_REDIS_URL() {
        const c = await new GenericContainer('redis:7-alpine').withExposedPorts(6379).withWaitStrategy(Wait.forLogMessage(/Ready to accept connections/)).start();
        return [`redis://${c.getHost()}:${c.getMappedPort(6379)}`, c];
      },
    };
    const results = await Promise.allSettled(missing.map(async (v) => [v, ...(await start[v]())] as const));
    const started = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    const failed = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as Error] : []));
    if (failed.length > 0) {
      // An engine without images or a registry to pull them from: all local, as without Docker.
      await Promise.allSettled(started.map(([, , c]) => c.stop()));
      process.stdout.write(`\ntestcontainers could not start the test servers (${failed[0].message.split('\n')[0]}); using the local ones\n`);
      return { urls: {}, containers: [] };
    }
    return { urls: Object.fromEntries(started.map(([v, url]) => [v, url])), containers: started.map(([, , c]) => c) };
  },
};
