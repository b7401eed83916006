import { GroupCommit } from './group-commit';

const tick = () => new Promise((r) => setImmediate(r));

describe('GroupCommit', () => {
  it('writes a lone item at once, and items that arrive while a batch is written together', async () => {
    const batches: number[][] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const group = new GroupCommit<number, string>(
      async (items) => {
        batches.push(items);
        if (batches.length === 1) await gate;
        return items.map((i) => `ok ${i}`);
      },
      { maxBatch: 3, concurrency: 1 },
    );

    const first = group.submit(1);
    await tick();
    const rest = [2, 3, 4, 5, 6].map((i) => group.submit(i));
    await tick();
    expect(batches).toEqual([[1]]);
    release();
    expect(await Promise.all([first, ...rest])).toEqual(['ok 1', 'ok 2', 'ok 3', 'ok 4', 'ok 5', 'ok 6']);
    expect(batches).toEqual([[1], [2, 3, 4], [5, 6]]);
  });

  it('keeps a batch within maxWeight when items weigh, and sends an item heavier than that alone', async () => {
    const batches: number[][] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const group = new GroupCommit<number, number>(
      async (items) => {
        batches.push(items);
        if (batches.length === 1) await gate;
        return items;
      },
      { maxBatch: 10, concurrency: 1, weightOf: (i) => i, maxWeight: 10 },
    );

    const first = group.submit(1);
    await tick();
    const rest = [4, 5, 2, 30, 3, 3, 3, 3].map((i) => group.submit(i));
    await tick();
    release();
    await Promise.all([first, ...rest]);
    expect(batches).toEqual([[1], [4, 5], [2], [30], [3, 3, 3], [3]]);
  });

  it('keeps at most `concurrency` batches in flight', async () => {
    let inFlight = 0;
    let most = 0;
    const group = new GroupCommit<number, number>(
      async (items) => {
        most = Math.max(most, ++inFlight);
        await new Promise((r) => setTimeout(r, 5));
        inFlight--;
        return items;
      },
      { maxBatch: 2, concurrency: 2 },
    );
    const all = await Promise.all(Array.from({ length: 20 }, (_, i) => group.submit(i)));
    expect(all).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(most).toBe(2);
  });

  it('writes the items of a failed batch one by one: a bad item fails alone', async () => {
    const group = new GroupCommit<number, number>(
      async (items) => {
        if (items.includes(13)) throw new Error('13 refused');
        return items.map((i) => i * 2);
      },
      { maxBatch: 10, concurrency: 1 },
    );
    const results = await Promise.allSettled([11, 12, 13, 14].map((i) => group.submit(i)));
    expect(results).toEqual([
      { status: 'fulfilled', value: 22 },
      { status: 'fulfilled', value: 24 },
      { status: 'rejected', reason: new Error('13 refused') },
      { status: 'fulfilled', value: 28 },
    ]);
  });
});
