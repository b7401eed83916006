import { provideTestInfrastructure } from './infrastructure';

/**
 * Jest globalSetup (jest.config.js): finds or starts Postgres, RabbitMQ and Redis once for the
 * whole run (see provideTestInfrastructure); the workers inherit the TEST_*_URL it sets.
 */
export default async function globalSetup(): Promise<void> {
  const { sources, containers } = await provideTestInfrastructure(process.env);
  (globalThis as { __testContainers?: unknown }).__testContainers = containers;
  if (containers.length > 0) {
    const started = Object.entries(sources).filter(([, s]) => s === 'container').map(([v]) => `${v}=${process.env[v]}`);
    process.stdout.write(`\ntest infrastructure from testcontainers: ${started.join(' ')}\n`);
  }
}
