import type { Request } from 'express';
import ipaddr from 'ipaddr.js';
import { clientIp } from '../common/client-ip';

/** IPv6 prefix length handed to one subscriber (a home, a phone, a server): all of it is one client. */
export const IPV6_CLIENT_PREFIX = 64;

/**
 * What a per-IP limit counts: an IPv4 address as it is, an IPv6 address as the /64 it belongs to.
 * One IPv6 subscriber owns 2^64 addresses; counting each alone would let one client pick a fresh
 * address for every attempt.
 */
export function addressNetwork(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const ip = ipaddr.process(address); // an IPv4-mapped IPv6 address counts as its IPv4 address
  if (ip.kind() === 'ipv4') return ip.toString();
  const hextets = (ip as ipaddr.IPv6).parts.slice(0, IPV6_CLIENT_PREFIX / 16);
  return `${hextets.map((h) => h.toString(16)).join(':')}::/${IPV6_CLIENT_PREFIX}`;
}

/** The network of the request's client address (see clientIp for which address that is). */
export function clientNetwork(req: Request): string {
  return addressNetwork(clientIp(req));
}
