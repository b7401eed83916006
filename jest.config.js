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
  moduleNameMapper: {
    '^@esim/(contracts|platform|testing)$': '<rootDir>/libs/$1/src',
    // The emulators read a service's provider code (KeepGo's wire shapes, the walls' signing) from its build; tests read the sources.
    '^@esim/(esim|webhooks)/dist/(.*)$': '<rootDir>/services/$1/src/$2',
  },
  testMatch: ['<rootDir>/{libs,services,sandboxes,frontend,test}/**/*.spec.{ts,tsx}', '<rootDir>/{libs,services,sandboxes,test}/**/*.integration-spec.ts', '<rootDir>/test/**/*.e2e-spec.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  // otplib (identity's TOTP) loads @scure/base and @noble/hashes, which ship ES modules only. Node
  // requires them natively; Jest's module registry does not, so SWC turns them into CommonJS here.
  transformIgnorePatterns: ['/node_modules/(?!(@scure|@noble)/)'],
  testTimeout: 60_000,
  setupFiles: ['<rootDir>/test/jest.setup.ts'],
  // TEST_*_URL as given; else testcontainers when Docker is reachable; else the local servers.
  globalSetup: '<rootDir>/libs/testing/src/jest-global-setup.ts',
  globalTeardown: '<rootDir>/libs/testing/src/jest-global-teardown.ts',
  maxWorkers: 2,
  // A worker runs many test files, each in its own module registry, and each registry that starts
  // a service makes prom-client's process defaults once (libs/platform/src/observability/metrics.ts):
  // a GC observer and an event-loop monitor that are never stopped, and that keep that registry's
  // modules alive. A worker grew to 2.2 GB over a whole run, and then took longer than Jest's
  // half-second grace to exit ("A worker process has failed to exit gracefully"). Jest replaces a
  // worker whose heap is past this after a test file.
  workerIdleMemoryLimit: '512MB',
  verbose: true,
};
