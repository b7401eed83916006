import { InfrastructureDeps, LOCAL_TEST_URLS, provideTestInfrastructure } from './infrastructure';

const deps = (engine: boolean) => {
  const calls = { dockerEngine: 0, startContainers: [] as string[][] };
  const d: InfrastructureDeps = {
    dockerEngine: () => {
      calls.dockerEngine++;
      return engine;
    },
    startContainers: async (missing) => {
      calls.startContainers.push(missing);
      return { urls: Object.fromEntries(missing.map((v) => [v, `container://${v}`])), containers: [] };
    },
  };
  return { d, calls };
};

describe('where tests find their servers', () => {
  it('uses the URLs it is given and never looks for Docker', async () => {
    const env = { TEST_DATABASE_URL: 'postgres://ci/db', TEST_AMQP_URL: 'amqp://ci', TEST_REDIS_URL: 'redis://ci' };
    const { d, calls } = deps(true);
    const { sources } = await provideTestInfrastructure(env, d);
    expect(sources).toEqual({ TEST_DATABASE_URL: 'given', TEST_AMQP_URL: 'given', TEST_REDIS_URL: 'given' });
    expect(calls).toEqual({ dockerEngine: 0, startContainers: [] });
    expect(env.TEST_AMQP_URL).toBe('amqp://ci');
  });

  it('starts containers for the missing ones when a Docker engine is reachable', async () => {
    const env: NodeJS.ProcessEnv = { TEST_REDIS_URL: 'redis://mine' };
    const { d, calls } = deps(true);
    const { sources } = await provideTestInfrastructure(env, d);
    expect(calls.startContainers).toEqual([['TEST_DATABASE_URL', 'TEST_AMQP_URL']]);
    expect(sources).toEqual({ TEST_DATABASE_URL: 'container', TEST_AMQP_URL: 'container', TEST_REDIS_URL: 'given' });
    expect(env.TEST_DATABASE_URL).toBe('container://TEST_DATABASE_URL');
  });

  it('falls back to the local servers without a Docker engine, or when told TESTCONTAINERS=off', async () => {
    for (const [env, engine] of [[{}, false], [{ TESTCONTAINERS: 'off' }, true]] as const) {
      const e: NodeJS.ProcessEnv = { ...env };
      const { d, calls } = deps(engine);
      await provideTestInfrastructure(e, d);
      expect(calls.startContainers).toEqual([]);
      expect(e.TEST_DATABASE_URL).toBe(LOCAL_TEST_URLS.TEST_DATABASE_URL);
      expect(e.TEST_AMQP_URL).toBe(LOCAL_TEST_URLS.TEST_AMQP_URL);
    }
  });
});
