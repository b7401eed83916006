/**
 * One Jest run for the whole monorepo. Tests import TypeScript sources directly (SWC), talk to
 * the real Postgres, RabbitMQ and Redis named by TEST_DATABASE_URL / TEST_AMQP_URL / TEST_REDIS_URL
 * (unset: containers when a Docker engine is reachable, else the local servers; see
 * libs/testing/src/infrastructure.ts), and isolate themselves with a TestNamespace.
 */
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true, tsx: true },
      transform: { legacyDecorator: true, decoratorMetadata: true, react: { runtime: 'automatic' } },
      target: 'es2022',
      keepClassNames: true,
    },
    module: { type: 'commonjs' },
  },
];

module.exports = {
  testEnvironment: 'node',
  transform: { '^.+\\.(t|j)sx?$': swc },
  moduleNameMapper: { '^@esim/(contracts|platform|testing)$': '<rootDir>/libs/$1/src' },
  testMatch: ['<rootDir>/{libs,services,frontend,test}/**/*.spec.{ts,tsx}', '<rootDir>/{libs,services,test}/**/*.integration-spec.ts', '<rootDir>/test/**/*.e2e-spec.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  testTimeout: 60_000,
  setupFiles: ['<rootDir>/test/jest.setup.ts'],
  // TEST_*_URL as given; else testcontainers when Docker is reachable; else the local servers.
  globalSetup: '<rootDir>/libs/testing/src/jest-global-setup.ts',
  globalTeardown: '<rootDir>/libs/testing/src/jest-global-teardown.ts',
  maxWorkers: 2,
  verbose: true,
};
