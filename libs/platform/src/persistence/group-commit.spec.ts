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

  describe('with spacingMs', () => {
    // Real setImmediate (the batches' own turn of the event loop), fake clock and setTimeout.
    beforeEach(() => jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] }));
    afterEach(() => jest.useRealTimers());

    /** A group whose writes succeed and are recorded, batch by batch. */
    const recording = (opts: ConstructorParameters<typeof GroupCommit<number, number>>[1]) => {
      const batches: number[][] = [];
      const group = new GroupCommit<number, number>(async (items) => {
        batches.push(items);
        return items;
      }, opts);
      return { batches, group };
    };

    it('holds a batch until spacingMs after the previous one started, then writes what arrived meanwhile together', async () => {
      const { batches, group } = recording({ maxBatch: 10, concurrency: 2, spacingMs: 100 });

      const written = [group.submit(1)];
      await tick();
      expect(batches).toEqual([[1]]);
      written.push(group.submit(2), group.submit(3));
      await tick();
      jest.advanceTimersByTime(60);
      written.push(group.submit(4));
      await tick();
      expect(batches).toEqual([[1]]);
      jest.advanceTimersByTime(40);
      await tick();
      expect(batches).toEqual([[1], [2, 3, 4]]);
      expect(await Promise.all(written)).toEqual([1, 2, 3, 4]);

      // After a quiet spell, an item is written at once.
      jest.advanceTimersByTime(500);
      const late = group.submit(5);
      await tick();
      expect(batches).toEqual([[1], [2, 3, 4], [5]]);
      expect(await late).toBe(5);
    });

    it('writes at once what fills a batch, by count or by weight', async () => {
      const { batches, group } = recording({ maxBatch: 3, concurrency: 2, spacingMs: 1000, weightOf: (i) => i, maxWeight: 10 });

      await group.submit(1);
      const full = [2, 3, 4].map((i) => group.submit(i));
      await tick();
      expect(batches).toEqual([[1], [2, 3, 4]]);
      await Promise.all(full);
      // Held: 5 is under both limits; 6 brings the weight past 10, so 5 goes, and 6 waits its turn.
      const heavy = [group.submit(5)];
      await tick();
      expect(batches).toHaveLength(2);
      heavy.push(group.submit(6));
      await tick();
      expect(batches).toEqual([[1], [2, 3, 4], [5]]);
      jest.advanceTimersByTime(1000);
      await tick();
      expect(batches).toEqual([[1], [2, 3, 4], [5], [6]]);
      expect(await Promise.all(heavy)).toEqual([5, 6]);
    });
  });
});
