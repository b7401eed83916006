import type { QueryFunctionContext } from '@tanstack/react-query';
import { HttpError, NetworkError, apiJson, apiRequest, getQueryFn } from './api';
import { serverError } from './serverError';

type FetchMock = jest.Mock<Promise<Response>, [input: RequestInfo | URL, init?: RequestInit]>;

function mockFetch(impl: () => Promise<Response>): FetchMock {
  const fn: FetchMock = jest.fn((_input: RequestInfo | URL, _init?: RequestInit) => impl());
  (globalThis as { fetch: unknown }).fetch = fn;
  return fn;
}

const ctx = (url: string) => ({ queryKey: [url], signal: new AbortController().signal }) as unknown as QueryFunctionContext;

describe('api client', () => {
  const realFetch = globalThis.fetch;
  afterEach(() => {
    globalThis.fetch = realFetch;
  });

  it('sends JSON with credentials and returns the parsed answer', async () => {
    const fetch = mockFetch(async () => new Response(JSON.stringify({ ok: true }), { status: 200 }));
    await expect(apiJson('POST', '/api/login', { username: 'a@b.co', password: 'x' })).resolves.toEqual({ ok: true });
    const [url, init] = fetch.mock.calls[0];
    expect(url).toBe('/api/login');
    expect(init).toMatchObject({ method: 'POST', credentials: 'include', body: '{"username":"a@b.co","password":"x"}' });
    expect((init?.headers as Record<string, string>)['Content-Type']).toBe('application/json');
  });

  it('turns a non-OK answer into "status: body" and falls back to the status text', async () => {
    const body = '{"message":"Invalid email or password","code":"unauthorized","reason":"invalid_credentials"}';
    mockFetch(async () => new Response(body, { status: 401, statusText: 'Unauthorized' }));
    const error = await apiRequest('POST', '/api/login', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as Error).message).toBe(`401: ${body}`);
    expect(serverError(error)).toEqual({ status: 401, reason: 'invalid_credentials', audience: 'user', details: undefined, message: 'Invalid email or password' });

    mockFetch(async () => new Response('', { status: 503, statusText: 'Service Unavailable' }));
    await expect(apiRequest('GET', '/api/x')).rejects.toThrow('503: Service Unavailable');
  });

  it('reads no declared error from a body that is not the error shape, or names an undeclared reason', () => {
    expect(serverError(new Error('500: boom'))).toBeNull();
    expect(serverError(new HttpError(502, 'Bad Gateway', '<html>proxy</html>'))).toBeNull();
    expect(serverError(new HttpError(409, 'Conflict', '{"message":"x","code":"conflict","reason":"not_declared"}'))).toBeNull();
  });

  it('reports a failed fetch as a NetworkError', async () => {
    mockFetch(async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(apiRequest('GET', '/api/user')).rejects.toBeInstanceOf(NetworkError);
  });

  it('reads with on401 "returnNull" resolve to null on 401 and throw otherwise', async () => {
    mockFetch(async () => new Response('', { status: 401, statusText: 'Unauthorized' }));
    await expect(getQueryFn({ on401: 'returnNull' })(ctx('/api/user'))).resolves.toBeNull();
    await expect(getQueryFn({ on401: 'throw' })(ctx('/api/user'))).rejects.toThrow('401: Unauthorized');
    mockFetch(async () => new Response('{"id":"1"}', { status: 200 }));
    await expect(getQueryFn({ on401: 'returnNull' })(ctx('/api/user'))).resolves.toEqual({ id: '1' });
  });
});
