import { loadTurnstileWith, TURNSTILE_SCRIPT_URL, type LoaderEnv, type TurnstileApi } from './turnstile';

interface FakeScript {
  src: string;
  async: boolean;
  defer: boolean;
  onload: null | (() => void);
  onerror: null | (() => void);
  removed: boolean;
  remove(): void;
}

/** A document whose script tags fail `failures` times, then load and define window.turnstile. */
function fakeEnv(failures: number) {
  const api = { render: jest.fn(), reset: jest.fn(), remove: jest.fn(), getResponse: jest.fn() } as unknown as TurnstileApi;
  const scripts: FakeScript[] = [];
  const waits: number[] = [];
  const win: { turnstile?: TurnstileApi } = {};
  const env: LoaderEnv = {
    window: win,
    wait: async (ms) => {
      waits.push(ms);
    },
    timeoutMs: 1000,
    document: {
      createElement: (() => {
        const s: FakeScript = { src: '', async: false, defer: false, onload: null, onerror: null, removed: false, remove: () => (s.removed = true) };
        return s;
      }) as unknown as Document['createElement'],
      head: {
        appendChild: (s: FakeScript) => {
          scripts.push(s);
          const fail = scripts.length <= failures;
          queueMicrotask(() => {
            if (fail) s.onerror?.();
            else {
              win.turnstile = api;
              s.onload?.();
            }
          });
          return s;
        },
      } as unknown as HTMLHeadElement,
    },
  };
  return { env, api, scripts, waits };
}

describe('Turnstile script loader', () => {
  it('loads the explicit-render script once', async () => {
    const { env, api, scripts, waits } = fakeEnv(0);
    await expect(loadTurnstileWith(env)).resolves.toBe(api);
    expect(scripts.map((s) => s.src)).toEqual([TURNSTILE_SCRIPT_URL]);
    expect(waits).toEqual([]);
  });

  it('retries a failed load up to 2 times, removing the failed tags', async () => {
    const { env, api, scripts, waits } = fakeEnv(2);
    await expect(loadTurnstileWith(env)).resolves.toBe(api);
    expect(scripts).toHaveLength(3);
    expect(scripts.slice(0, 2).every((s) => s.removed)).toBe(true);
    expect(waits).toEqual([1000, 2000]);
  });

  it('gives up after the third failed attempt', async () => {
    const { env, scripts } = fakeEnv(3);
    await expect(loadTurnstileWith(env)).rejects.toThrow('failed to load');
    expect(scripts).toHaveLength(3);
  });
});
