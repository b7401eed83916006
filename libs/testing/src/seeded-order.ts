import fc from 'fast-check';

let seed: number | undefined;
let draws = 0;

/**
 * The seed of every random order a test file makes (its shuffles, its fast-check runs):
 * TEST_SEED when set, else a new one. Printed once per file, so an order that failed can be
 * replayed exactly with `TEST_SEED=<seed> npx jest <file>`. Jest loads this module anew for each
 * test file, so each file has a seed of its own.
 */
export function testSeed(): number {
  if (seed === undefined) {
    const given = process.env.TEST_SEED;
    seed = given !== undefined && given !== '' ? Number(given) : fc.sample(fc.integer({ min: 0, max: 2 ** 31 - 1 }), 1)[0];
    if (!Number.isSafeInteger(seed)) throw new Error(`TEST_SEED must be an integer, got ${given}`);
    console.info(`random orders of this file: seed ${seed} (replay with TEST_SEED=${seed})`);
  }
  return seed;
}

/**
 * The items in an order drawn from the file's seed: each call a new order, the same ones again on
 * a replay with that seed. fast-check draws it, the same generator the property tests use.
 */
export function shuffled<T>(items: readonly T[]): T[] {
  const all = fc.shuffledSubarray([...items], { minLength: items.length, maxLength: items.length });
  return fc.sample(all, { seed: testSeed() + draws++, numRuns: 1 })[0];
}
