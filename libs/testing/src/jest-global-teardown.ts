import type { StartedTestContainer } from 'testcontainers';

/** Jest globalTeardown: stops the containers jest-global-setup.ts started, if any. */
export default async function globalTeardown(): Promise<void> {
  const containers = ((globalThis as { __testContainers?: StartedTestContainer[] }).__testContainers ?? []);
  await Promise.all(containers.map((c) => c.stop()));
}
