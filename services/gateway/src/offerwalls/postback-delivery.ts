import type { Request } from 'express';
import type { OfferwallId, PostbackDelivery } from '@esim/contracts';
import { clientIp } from '../common/client-ip';

/** Headers that are ours, not the provider's: never forwarded or stored. */
const PRIVATE_HEADERS = new Set(['cookie', 'authorization', 'proxy-authorization']);

/**
 * The callback exactly as received. The full URL is PUBLIC_URL's origin followed by the request
 * target byte for byte (BitLabs signs it; it is never rebuilt from the Host header). The source
 * address follows TRUST_PROXY (see clientIp).
 */
export function postbackDelivery(provider: OfferwallId, req: Request, publicOrigin: string): PostbackDelivery {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined && !PRIVATE_HEADERS.has(name)) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  const body = req.body !== null && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Record<string, unknown>) : null;
  return {
    provider,
    method: req.method === 'POST' ? 'POST' : 'GET',
    fullUrl: `${publicOrigin}${req.originalUrl}`,
    query: req.query as PostbackDelivery['query'],
    body,
    headers,
    sourceIp: clientIp(req),
  };
}
