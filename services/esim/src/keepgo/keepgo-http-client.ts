import { Logger } from '@nestjs/common';
import { ProviderCalls, ProviderCircuitOpenError } from '@esim/platform';
import { EsimProviderErrorCode, EsimProviderException } from './esim-provider.exception';
import type { KeepGoAnswer } from './keepgo-api';

export interface KeepGoCall {
  method: 'GET' | 'POST' | 'PUT';
  /** Relative to the API base, e.g. `/line/8900…/get_details`. */
  path: string;
  query?: Record<string, string | number>;
  body?: unknown;
  /** Our reference, sent as `Idempotency-Key` on calls that create something. */
  idempotencyKey?: string;
}

export interface KeepGoConnection {
  baseUrl(): string;
  apiKey: string;
  accessToken: string;
  timeoutMs: number;
}

/** Connection errors that prove the request never reached the server. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

/**
 * One KeepGo HTTP call, no retries: auth headers, JSON, a hard timeout, the `ack` check, and every
 * failure turned into an EsimProviderException that says whether it is definite or transient and
 * whether the request may have been carried out.
 */
export class KeepGoHttpClient {
  private readonly log = new Logger('KeepGo');

  constructor(
    private readonly connection: KeepGoConnection,
    /** Times, counts and guards every call (provider_* metrics, the KeepGo circuit breaker). */
    private readonly calls: ProviderCalls,
  ) {}

  /**
   * While KeepGo's breaker is open the call is not sent and fails as `unavailable`, outcome known
   * (not carried out): a line creation refused this way is safe to order again later.
   */
  async send<T extends KeepGoAnswer>(call: KeepGoCall): Promise<T> {
    try {
      return await this.calls.call(operationOf(call), () => this.sendNow<T>(call));
    } catch (err) {
      if (err instanceof ProviderCircuitOpenError) throw EsimProviderException.paused(err);
      throw err;
    }
  }

  private async sendNow<T extends KeepGoAnswer>(call: KeepGoCall): Promise<T> {
    const url = new URL(`${this.connection.baseUrl()}${call.path}`);
    for (const [key, value] of Object.entries(call.query ?? {})) url.searchParams.set(key, String(value));
    const headers: Record<string, string> = {
      accept: 'application/json',
      apiKey: this.connection.apiKey,
      accessToken: this.connection.accessToken,
    };
    if (call.body !== undefined) headers['content-type'] = 'application/json';
    if (call.idempotencyKey) headers['Idempotency-Key'] = call.idempotencyKey;
    const what = `${call.method} ${call.path}`;
    const started = Date.now();

    let status: number;
    let text: string;
    try {
      const res = await fetch(url, {
        method: call.method,
        headers,
        body: call.body === undefined ? undefined : JSON.stringify(call.body),
        signal: AbortSignal.timeout(this.connection.timeoutMs),
      });
      status = res.status;
      text = await res.text();
    } catch (err) {
      const failure = this.networkFailure(err, what);
      this.log.warn({ call: what, ms: Date.now() - started, outcomeUnknown: failure.outcomeUnknown }, failure.message);
      throw failure;
    }
    this.log.debug({ call: what, status, ms: Date.now() - started }, 'KeepGo answered');

    let body: (KeepGoAnswer & Record<string, unknown>) | undefined;
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) body = parsed as KeepGoAnswer & Record<string, unknown>;
    } catch {
      body = undefined;
    }
    if (status >= 200 && status < 300 && body?.ack === 'success') return body as unknown as T;
    throw classify(status, body, call, what);
  }

  private networkFailure(err: unknown, what: string): EsimProviderException {
    const name = (err as { name?: string })?.name;
    if (name === 'TimeoutError' || name === 'AbortError') {
      return new EsimProviderException(
        'unavailable',
        `KeepGo API unavailable: no answer within ${this.connection.timeoutMs} ms (${what})`,
        {
          outcomeUnknown: true,
          cause: err,
        },
      );
    }
    const code = (err as { cause?: { code?: string } })?.cause?.code ?? (err as { code?: string })?.code;
    return new EsimProviderException(
      'unavailable',
      `KeepGo API unavailable: ${code ?? (err as Error)?.message ?? 'network error'} (${what})`,
      {
        outcomeUnknown: !(code && NOT_SENT.has(code)),
        cause: err,
      },
    );
  }
}

/** The `operation` label: method and route, the ICCID left out (`GET /line/:iccid/get_details`). */
function operationOf(call: KeepGoCall): string {
  return `${call.method} ${call.path.replace(/^\/line\/(?!create$)[^/]+/, '/line/:iccid')}`;
}

function classify(
  status: number,
  body: (KeepGoAnswer & Record<string, unknown>) | undefined,
  call: KeepGoCall,
  what: string,
): EsimProviderException {
  const providerMessage = typeof body?.message === 'string' ? body.message : typeof body?.error === 'string' ? body.error : null;
  const detail = providerMessage ?? `HTTP ${status}`;
  const opts = { httpStatus: status, providerMessage };
  // The provider failed on its side, or an intermediary answered for it: the request may or may
  // not have been carried out (429 is the exception: it was turned away before any work).
  if (status === 408 || status === 429 || status >= 500 || (status >= 200 && status < 300 && body === undefined)) {
    return new EsimProviderException('unavailable', `KeepGo API unavailable: ${detail} (${what})`, {
      ...opts,
      outcomeUnknown: status !== 429,
    });
  }
  const code = refusalCode(status, providerMessage, call.path);
  const iccid = call.path.match(/^\/line\/([^/]+)\//)?.[1];
  if (code === 'line_not_found') return EsimProviderException.lineNotFound(decodeURIComponent(iccid ?? '?'), providerMessage);
  if (code === 'no_refills_available') return EsimProviderException.noRefillsAvailable(decodeURIComponent(iccid ?? '?'), providerMessage);
  if (code === 'no_suitable_offer') return EsimProviderException.noSuitableOffer(`offer: ${detail}`, providerMessage);
  if (code === 'insufficient_balance')
    return new EsimProviderException(code, `KeepGo: Provider API error: insufficient account balance (${detail})`, opts);
  if (code === 'unauthorized') return new EsimProviderException(code, `KeepGo: Provider API error: credentials refused (${detail})`, opts);
  return new EsimProviderException('refused', `KeepGo: Provider API error: ${detail} (${what})`, opts);
}

/**
 * KeepGo documents no error codes, so a refusal is read from the HTTP status first and the
 * message second (see docs/keepgo.md, "Errors").
 */
function refusalCode(status: number, message: string | null, path: string): EsimProviderErrorCode {
  const m = message ?? '';
  if (status === 401 || status === 403) return 'unauthorized';
  if (/no refills? available/i.test(m)) return 'no_refills_available';
  if (/no suitable/i.test(m)) return 'no_suitable_offer';
  if (/insufficient (account )?balance|not enough (balance|funds|credit)/i.test(m)) return 'insufficient_balance';
  if (path.startsWith('/line/') && (status === 404 || /line not found|iccid not found|invalid iccid/i.test(m))) return 'line_not_found';
  return 'refused';
}
