import type { Request } from 'express';
import { plainIpAddress } from '@esim/platform';

/**
 * The client's address as providers know it: `req.ip` (the socket's, unless TRUST_PROXY names
 * proxies whose X-Forwarded-For counts), with an IPv4-mapped IPv6 address written as plain IPv4.
 */
export function clientIp(req: Request): string {
  return plainIpAddress(req.ip ?? req.socket.remoteAddress ?? '');
}
