import type { LiveEndEvent, LiveUserEvent } from '@esim/contracts';

/** The signed-in user's stream (server-sent events; docs/live-view.md). */
export const LIVE_URL = '/api/events';

export interface LiveHandlers {
  /** The current view, and what just happened (null for the first message and plain changes). */
  onUser(event: LiveUserEvent): void;
  /** The session ended (sign-out in any tab, expiry): the connection is closed for good. */
  onEnd(event: LiveEndEvent): void;
  /** The connection failed; attempt `attempt` (0 first) follows after the backoff. */
  onRetry?(attempt: number): void;
}

/** The part of EventSource this uses, so tests can drive it. */
export interface EventSourceLike {
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void): void;
  close(): void;
  onopen: ((event: Event) => void) | null;
  onerror: ((event: Event) => void) | null;
}

export interface LiveConnectionOptions {
  createSource?: (url: string) => EventSourceLike;
  random?: () => number;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (timer: unknown) => void;
}

export const RECONNECT_BASE_MS = 1000;
export const RECONNECT_MAX_MS = 30_000;

/**
 * How long to wait before reconnect attempt `attempt` (0 for the first): exponential from 1 s up to
 * 30 s, with "full jitter" (a random share of it, at least half), so that every page of a restarted
 * gateway does not come back in the same instant.
 */
export function reconnectDelay(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(RECONNECT_MAX_MS, RECONNECT_BASE_MS * 2 ** Math.min(attempt, 16));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/**
 * One page's live stream. The browser's own EventSource retry is replaced by ours: on any error
 * the source is closed and opened again after `reconnectDelay`, growing until a connection opens.
 * An `end` event closes it for good (the session is over; reconnecting would only get a 401).
 * Push only: nothing is polled.
 */
export class LiveConnection {
  private source: EventSourceLike | null = null;
  private timer: unknown = null;
  private attempt = 0;
  private stopped = false;
  private readonly createSource: (url: string) => EventSourceLike;
  private readonly random: () => number;
  private readonly setTimer: (fn: () => void, ms: number) => unknown;
  private readonly clearTimer: (timer: unknown) => void;

  constructor(
    private readonly handlers: LiveHandlers,
    opts: LiveConnectionOptions = {},
  ) {
    this.createSource = opts.createSource ?? ((url) => new EventSource(url, { withCredentials: true }) as unknown as EventSourceLike);
    this.random = opts.random ?? Math.random;
    this.setTimer = opts.setTimer ?? ((fn, ms) => window.setTimeout(fn, ms));
    this.clearTimer = opts.clearTimer ?? ((t) => window.clearTimeout(t as number));
  }

  start(): void {
    this.stopped = false;
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== null) this.clearTimer(this.timer);
    this.timer = null;
    this.source?.close();
    this.source = null;
  }

  /** Back online: try at once instead of waiting out the backoff. */
  retryNow(): void {
    if (this.stopped || this.source) return;
    if (this.timer !== null) this.clearTimer(this.timer);
    this.timer = null;
    this.connect();
  }

  private connect(): void {
    const source = this.createSource(LIVE_URL);
    this.source = source;
    source.onopen = () => {
      this.attempt = 0;
    };
    source.onerror = () => {
      if (this.source !== source) return;
      source.close();
      this.source = null;
      if (this.stopped) return;
      const attempt = this.attempt++;
      this.handlers.onRetry?.(attempt);
      this.timer = this.setTimer(() => {
        this.timer = null;
        if (!this.stopped) this.connect();
      }, reconnectDelay(attempt, this.random));
    };
    source.addEventListener('user', (event) => {
      const data = parse<LiveUserEvent>(event.data);
      if (data?.user) this.handlers.onUser(data);
    });
    source.addEventListener('end', (event) => {
      this.stop();
      this.handlers.onEnd(parse<LiveEndEvent>(event.data) ?? { reason: 'signed_out' });
    });
  }
}

function parse<T>(text: string): T | null {
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}
