import { TimedCache } from './timed-cache';

const settings = { cacheMs: 60_000, refreshFloorMs: 5_000, maxEntries: 3, staleMs: 600_000 };
class Transient extends Error {}

function setup() {
  let now = 1_000_000;
  const clock = { advance: (ms: number) => (now += ms) };
  const cache = new TimedCache<string>(
    settings,
    (err) => err instanceof Transient,
    () => now,
  );
  let calls = 0;
  const load = (value: string) => async () => {
    calls += 1;
    return value;
  };
  return { cache, clock, load, calls: () => calls };
}

describe('TimedCache (line usage read from the provider)', () => {
  it('reuses an answer younger than the cache time, and asks again after it', async () => {
    const { cache, clock, load, calls } = setup();
    const first = await cache.get('a', load('v1'));
    expect(first).toEqual({ value: 'v1', at: 1_000_000 });
    clock.advance(59_999);
    expect((await cache.get('a', load('v2'))).value).toBe('v1');
    expect(calls()).toBe(1);
    clock.advance(1);
    expect(await cache.get('a', load('v2'))).toEqual({ value: 'v2', at: 1_060_000 });
    expect(calls()).toBe(2);
  });

  it('asks again on a refresh, unless the last answer is only seconds old', async () => {
    const { cache, clock, load, calls } = setup();
    await cache.get('a', load('v1'));
    clock.advance(4_999);
    expect((await cache.get('a', load('v2'), { refresh: true })).value).toBe('v1');
    clock.advance(1);
    expect((await cache.get('a', load('v2'), { refresh: true })).value).toBe('v2');
    expect(calls()).toBe(2);
  });

  it('shares one load between concurrent misses of a key', async () => {
    const { cache } = setup();
    let release!: (v: string) => void;
    let calls = 0;
    const slow = () => {
      calls += 1;
      return new Promise<string>((resolve) => (release = resolve));
    };
    const both = Promise.all([cache.get('a', slow), cache.get('a', slow), cache.get('a', slow, { refresh: true })]);
    release('v');
    expect((await both).map((t) => t.value)).toEqual(['v', 'v', 'v']);
    expect(calls).toBe(1);
  });

  it('serves the last answer (with its time) when the provider fails for a passing reason, within the stale limit', async () => {
    const { cache, clock, load } = setup();
    await cache.get('a', load('v1'));
    clock.advance(120_000);
    const failing = async (): Promise<string> => {
      throw new Transient('provider down');
    };
    expect(await cache.get('a', failing)).toEqual({ value: 'v1', at: 1_000_000 });
    clock.advance(600_000);
    await expect(cache.get('a', failing)).rejects.toThrow('provider down');
  });

  it('never hides a definite refusal behind an old answer, and has nothing to fall back on for a new key', async () => {
    const { cache, clock, load } = setup();
    await cache.get('a', load('v1'));
    clock.advance(120_000);
    await expect(cache.get('a', async () => Promise.reject(new Error('line not found')))).rejects.toThrow('line not found');
    await expect(cache.get('b', async () => Promise.reject(new Transient('down')))).rejects.toThrow('down');
  });

  it('keeps at most maxEntries keys, forgetting the least recently loaded', async () => {
    const { cache, load, calls } = setup();
    for (const key of ['a', 'b', 'c', 'd']) await cache.get(key, load(key));
    expect(calls()).toBe(4);
    await cache.get('b', load('b'));
    await cache.get('d', load('d'));
    expect(calls()).toBe(4);
    await cache.get('a', load('a2'));
    expect(calls()).toBe(5);
  });
});
