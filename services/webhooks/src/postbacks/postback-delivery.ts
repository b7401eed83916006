import type { OfferwallId } from '@esim/contracts';

/**
 * One offer-wall callback exactly as it reached us. `fullUrl` is the URL the provider called, byte
 * for byte: PUBLIC_URL's origin followed by the request target (BitLabs signs it; it is never
 * rebuilt from the Host header). `sourceIp` is the provider's address under TRUST_PROXY.
 */
export interface PostbackDelivery {
  provider: OfferwallId;
  method: 'GET' | 'POST';
  fullUrl: string;
  query: Record<string, string | string[]>;
  body: Record<string, unknown> | null;
  headers: Record<string, string>;
  sourceIp: string;
}

/** What either HTTP path read of a callback, before it becomes a delivery. */
export interface ReceivedCallback {
  method: 'GET' | 'POST';
  fullUrl: string;
  query: PostbackDelivery['query'];
  body: Record<string, unknown> | null;
  rawHeaders: Record<string, string | string[] | undefined>;
  sourceIp: string;
}

/** The delivery both HTTP paths hand to the ingestion (postbacks.controller.ts, postback-fast-path.ts). */
export function deliveryOf(provider: OfferwallId, r: ReceivedCallback): PostbackDelivery {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(r.rawHeaders)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  return { provider, method: r.method, fullUrl: r.fullUrl, query: r.query, body: r.body, headers, sourceIp: r.sourceIp };
}
