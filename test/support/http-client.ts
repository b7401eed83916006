/** A fetch-based client with a cookie jar, as a browser tab would behave toward the gateway. */
export interface HttpResponse {
  status: number;
  headers: Headers;
  text: string;
  json<T = any>(): T;
}

export class HttpClient {
  readonly cookies = new Map<string, string>();

  constructor(readonly baseUrl: string) {}

  get(path: string, init: RequestInit = {}) {
    return this.request('GET', path, undefined, init);
  }
  post(path: string, body?: unknown, init: RequestInit = {}) {
    return this.request('POST', path, body, init);
  }
  put(path: string, body?: unknown, init: RequestInit = {}) {
    return this.request('PUT', path, body, init);
  }
  patch(path: string, body?: unknown, init: RequestInit = {}) {
    return this.request('PATCH', path, body, init);
  }
  delete(path: string, body?: unknown, init: RequestInit = {}) {
    return this.request('DELETE', path, body, init);
  }

  /** Sends `body` as JSON unless `init.body` is given (raw bodies for CSRF and parser tests). */
  async request(method: string, path: string, body?: unknown, init: RequestInit = {}): Promise<HttpResponse> {
    const headers = new Headers(init.headers);
    if (body !== undefined && init.body === undefined && !headers.has('content-type')) headers.set('content-type', 'application/json');
    if (this.cookies.size && !headers.has('cookie')) headers.set('cookie', [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    const res = await fetch(new URL(path, this.baseUrl), {
      ...init,
      method,
      headers,
      body: init.body ?? (body === undefined ? undefined : JSON.stringify(body)),
      redirect: 'manual',
    });
    for (const cookie of res.headers.getSetCookie()) {
      const [pair, ...attrs] = cookie.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attrs.some((a) => /^\s*expires=thu, 01 jan 1970/i.test(a) || /^\s*max-age=0\b/i.test(a));
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await res.text();
    return { status: res.status, headers: res.headers, text, json: () => JSON.parse(text) };
  }
}
