import { EventSourceLike, LIVE_URL, LiveConnection, RECONNECT_MAX_MS, reconnectDelay } from './liveConnection';

/** An EventSource the test drives: it opens, fails, and delivers events on command. */
class FakeSource implements EventSourceLike {
  onopen: ((event: Event) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  closed = false;
  private readonly listeners = new Map<string, (event: MessageEvent<string>) => void>();

  constructor(readonly url: string) {}
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void): void {
    this.listeners.set(type, listener);
  }
  close(): void {
    this.closed = true;
  }
  emit(type: string, data: unknown): void {
    this.listeners.get(type)?.({ data: JSON.stringify(data) } as MessageEvent<string>);
  }
}

function harness() {
  const sources: FakeSource[] = [];
  const timers: Array<{ fn: () => void; ms: number; cleared: boolean }> = [];
  const onUser = jest.fn();
  const onEnd = jest.fn();
  const onRetry = jest.fn();
  const connection = new LiveConnection(
    { onUser, onEnd, onRetry },
    {
      createSource: (url) => {
        const s = new FakeSource(url);
        sources.push(s);
        return s;
      },
      random: () => 0.5,
      setTimer: (fn, ms) => {
        const t = { fn, ms, cleared: false };
        timers.push(t);
        return t;
      },
      clearTimer: (t) => {
        (t as { cleared: boolean }).cleared = true;
      },
    },
  );
  const fire = () => {
    const t = timers.filter((x) => !x.cleared).at(-1)!;
    t.cleared = true;
    t.fn();
  };
  return { connection, sources, timers, onUser, onEnd, onRetry, fire };
}

const user = { id: 'u1', points: 250 };

describe('the live connection', () => {
  it('backs off exponentially with jitter, from about a second up to 30 s', () => {
    expect(reconnectDelay(0, () => 0)).toBe(500);
    expect(reconnectDelay(0, () => 1)).toBe(1000);
    expect(reconnectDelay(3, () => 1)).toBe(8000);
    expect(reconnectDelay(20, () => 1)).toBe(RECONNECT_MAX_MS);
    expect(reconnectDelay(20, () => 0)).toBe(RECONNECT_MAX_MS / 2);
  });

  it('hands each view over, and reconnects after a failure with growing waits, back to the first wait once connected', () => {
    const h = harness();
    h.connection.start();
    expect(h.sources).toHaveLength(1);
    expect(h.sources[0].url).toBe(LIVE_URL);
    h.sources[0].emit('user', { user, happened: { kind: 'points-credited', points: 250, provider: 'cpx' } });
    expect(h.onUser).toHaveBeenCalledWith({ user, happened: { kind: 'points-credited', points: 250, provider: 'cpx' } });

    h.sources[0].onerror!(new Event('error'));
    expect(h.sources[0].closed).toBe(true);
    expect(h.timers.map((t) => t.ms)).toEqual([750]);
    h.fire();
    h.sources[1].onerror!(new Event('error'));
    h.fire();
    h.sources[2].onerror!(new Event('error'));
    expect(h.timers.map((t) => t.ms)).toEqual([750, 1500, 3000]);
    expect(h.onRetry.mock.calls.map(([attempt]) => attempt)).toEqual([0, 1, 2]);

    h.fire();
    h.sources[3].onopen!(new Event('open'));
    h.sources[3].onerror!(new Event('error'));
    expect(h.timers.at(-1)!.ms).toBe(750);
  });

  it('stays closed after the session ended, and after stop', () => {
    const h = harness();
    h.connection.start();
    h.sources[0].emit('end', { reason: 'signed_out' });
    expect(h.onEnd).toHaveBeenCalledWith({ reason: 'signed_out' });
    expect(h.sources[0].closed).toBe(true);
    h.sources[0].onerror!(new Event('error'));
    expect(h.timers).toHaveLength(0);

    const g = harness();
    g.connection.start();
    g.sources[0].onerror!(new Event('error'));
    g.connection.stop();
    expect(g.timers[0].cleared).toBe(true);
    g.connection.retryNow();
    expect(g.sources).toHaveLength(1);
  });

  it('reconnects at once when asked (back online) instead of waiting out the backoff', () => {
    const h = harness();
    h.connection.start();
    h.sources[0].onerror!(new Event('error'));
    h.connection.retryNow();
    expect(h.timers[0].cleared).toBe(true);
    expect(h.sources).toHaveLength(2);
    // Connected already: nothing more.
    h.connection.retryNow();
    expect(h.sources).toHaveLength(2);
  });
});
