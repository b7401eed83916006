/**
 * Cloudflare Turnstile's browser API (the part the widget uses) and its script loader. The script
 * is loaded on demand, only when a live site key is configured, and retried up to twice when it
 * fails to load (spec section 4).
 */
export interface TurnstileRenderOptions {
  sitekey: string;
  callback?: (token: string) => void;
  'error-callback'?: (code?: string) => void | boolean;
  'expired-callback'?: () => void;
  'timeout-callback'?: () => void;
  theme?: 'light' | 'dark' | 'auto';
  language?: string;
  size?: 'normal' | 'flexible' | 'compact';
  retry?: 'auto' | 'never';
  'refresh-expired'?: 'auto' | 'manual' | 'never';
  action?: string;
}

export interface TurnstileApi {
  render(container: HTMLElement | string, options: TurnstileRenderOptions): string | undefined;
  reset(widgetId?: string): void;
  remove(widgetId?: string): void;
  getResponse(widgetId?: string): string | undefined;
}

declare global {
  interface Window {
    turnstile?: TurnstileApi;
  }
}

export const TURNSTILE_SCRIPT_URL = 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit';
/** Retries after the first attempt (spec section 4: "retries its script load up to 2 times"). */
export const TURNSTILE_LOAD_RETRIES = 2;

export interface LoaderEnv {
  document: Pick<Document, 'createElement' | 'head'>;
  window: { turnstile?: TurnstileApi };
  wait: (ms: number) => Promise<void>;
  timeoutMs: number;
}

const browserEnv = (): LoaderEnv => ({
  document,
  window,
  wait: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  timeoutMs: 15_000,
});

function injectOnce(env: LoaderEnv): Promise<TurnstileApi> {
  return new Promise((resolve, reject) => {
    const script = env.document.createElement('script');
    script.src = TURNSTILE_SCRIPT_URL;
    script.async = true;
    script.defer = true;
    let settled = false;
    const finish = (error?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const api = env.window.turnstile;
      if (!error && api) return resolve(api);
      // A failed attempt leaves no tag behind, so the next attempt downloads afresh.
      script.remove();
      reject(error ?? new Error('Turnstile loaded without its API'));
    };
    const timer = setTimeout(() => finish(new Error('Turnstile script timed out')), env.timeoutMs);
    script.onload = () => finish();
    script.onerror = () => finish(new Error('Turnstile script failed to load'));
    env.document.head.appendChild(script);
  });
}

/** Loads the script: one attempt plus `retries`, waiting 1 s, then 2 s, between them. */
export async function loadTurnstileWith(env: LoaderEnv, retries = TURNSTILE_LOAD_RETRIES): Promise<TurnstileApi> {
  if (env.window.turnstile) return env.window.turnstile;
  let lastError: unknown;
  for (let attempt = 0; attempt <= retries; attempt++) {
    if (attempt > 0) await env.wait(1000 * 2 ** (attempt - 1));
    try {
      return await injectOnce(env);
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}

let pending: Promise<TurnstileApi> | null = null;

/** The shared loader: concurrent widgets wait for one download; a final failure can be retried. */
export function loadTurnstile(): Promise<TurnstileApi> {
  if (!pending) {
    pending = loadTurnstileWith(browserEnv()).catch((error: unknown) => {
      pending = null;
      throw error;
    });
  }
  return pending;
}
