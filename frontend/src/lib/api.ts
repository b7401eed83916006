import type { QueryFunction } from '@tanstack/react-query';
import { deviceId } from './deviceId';

/**
 * The HTTP client (spec section 7). Every call sends the session cookie; bodies are JSON; any
 * non-OK answer throws an HttpError whose message is `${status}: ${bodyText || statusText}`.
 */
export class HttpError extends Error {
  readonly status: number;
  readonly statusText: string;
  readonly body: string;

  constructor(status: number, statusText: string, body: string) {
    super(`${status}: ${body || statusText}`);
    this.name = 'HttpError';
    this.status = status;
    this.statusText = statusText;
    this.body = body;
  }
}

/** fetch itself failed (offline, DNS, server unreachable). */
export class NetworkError extends Error {
  constructor(cause?: unknown) {
    super('Network error. Please try again.');
    this.name = 'NetworkError';
    this.cause = cause;
  }
}

async function throwIfNotOk(res: Response): Promise<void> {
  if (res.ok) return;
  const text = await res.text().catch(() => '');
  throw new HttpError(res.status, res.statusText, text);
}

async function send(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, { credentials: 'include', ...init });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new NetworkError(error);
  }
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Sends a request and returns the (OK) Response. */
export async function apiRequest(method: HttpMethod, url: string, data?: unknown, signal?: AbortSignal): Promise<Response> {
  const device = method === 'GET' ? null : deviceId();
  const res = await send(url, {
    method,
    headers: {
      Accept: 'application/json',
      ...(data !== undefined ? { 'Content-Type': 'application/json' } : {}),
      // The first-party device id, on changes only (sign-up and sign-in read it): lib/deviceId.ts.
      ...(device ? { 'X-Device-Id': device } : {}),
    },
    body: data !== undefined ? JSON.stringify(data) : undefined,
    signal,
  });
  await throwIfNotOk(res);
  return res;
}

/** Sends a request and parses the JSON answer (undefined for an empty body). */
export async function apiJson<T>(method: HttpMethod, url: string, data?: unknown): Promise<T> {
  const res = await apiRequest(method, url, data);
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

export type UnauthorizedBehavior = 'returnNull' | 'throw';

/** A GET read keyed by its URL (`queryKey[0]`); with on401 'returnNull' a 401 resolves to null. */
export function getQueryFn<T>({ on401 }: { on401: UnauthorizedBehavior }): QueryFunction<T | null> {
  return async ({ queryKey, signal }) => {
    const res = await send(String(queryKey[0]), { headers: { Accept: 'application/json' }, signal });
    if (on401 === 'returnNull' && res.status === 401) return null;
    await throwIfNotOk(res);
    return (await res.json()) as T;
  };
}
