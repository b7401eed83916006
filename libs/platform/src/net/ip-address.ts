const IPV4_MAPPED = /^::ffff:(?=\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$)/i;

/**
 * An address as people and allow-lists write it: an IPv4-mapped IPv6 address (`::ffff:203.0.113.5`,
 * what a dual-stack socket reports for an IPv4 client) becomes the plain IPv4 address.
 */
export const plainIpAddress = (address: string): string => address.replace(IPV4_MAPPED, '');
