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
