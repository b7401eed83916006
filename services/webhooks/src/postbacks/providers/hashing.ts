import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

export const md5Hex = (text: string) => createHash('md5').update(text, 'utf8').digest('hex');
export const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
export const hmacSha1Hex = (key: string, text: string) => createHmac('sha1', key).update(text, 'utf8').digest('hex');

/** Constant-time comparison of a received hex digest with the expected one (case-insensitive). */
export function sameDigest(received: string | undefined, expected: string): boolean {
  if (received === undefined) return false;
  const a = Buffer.from(received.toLowerCase(), 'utf8');
  const b = Buffer.from(expected.toLowerCase(), 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}
