import type { PostbackDelivery } from '../postback-delivery';

/** The single value of each parameter of a delivery: its query, plus form fields of a POST. */
export type PostbackParams = ReadonlyMap<string, string>;

export interface CollectedParams {
  params: PostbackParams;
  /** Parameters sent more than once: ambiguous, so the delivery is refused. */
  repeated: string[];
}

export function collectParams(d: PostbackDelivery): CollectedParams {
  const params = new Map<string, string>();
  const repeated = new Set<string>();
  const add = (key: string, value: unknown) => {
    if (Array.isArray(value) || params.has(key)) repeated.add(key);
    else if (typeof value === 'string' || typeof value === 'number') params.set(key, String(value));
  };
  for (const [key, value] of Object.entries(d.query)) add(key, value);
  if (d.method === 'POST' && d.body) for (const [key, value] of Object.entries(d.body)) add(key, value);
  return { params, repeated: [...repeated] };
}

/** Why a delivery cannot be read: a missing or malformed field, or an unusable amount. */
export class PostbackFormatError extends Error {
  constructor(
    readonly kind: 'invalid' | 'amount',
    message: string,
  ) {
    super(message);
  }
}

const MAX_FIELD = 256;

export function required(p: PostbackParams, name: string): string {
  const value = p.get(name)?.trim();
  if (!value) throw new PostbackFormatError('invalid', `missing ${name}`);
  if (value.length > MAX_FIELD) throw new PostbackFormatError('invalid', `${name} is too long`);
  return value;
}

/** A transaction id: printable, at most 128 characters. */
export function transactionId(p: PostbackParams, name: string): string {
  const value = required(p, name);
  if (value.length > 128 || !/^[\x21-\x7e]+$/.test(value))
    throw new PostbackFormatError('invalid', `${name} is not a usable transaction id`);
  return value;
}

/** A decimal amount as providers send it ("100", "12.50", "-75"). */
export function amount(p: PostbackParams, name: string): number {
  const raw = p.get(name)?.trim();
  if (!raw || !/^-?\d{1,12}(\.\d{1,8})?$/.test(raw)) throw new PostbackFormatError('amount', `${name} is not an amount`);
  return Number(raw);
}

/** Points are whole megabytes: a fractional reward is rounded to the nearest point. */
export const toPoints = (value: number) => Math.round(Math.abs(value));

/**
 * The points of a delivery that says by another field whether it credits or reverses. A credit
 * with a negative amount makes no sense: it is refused rather than credited as its absolute value.
 * A reversal's amount is only informative (the reversal takes back what its credit gave).
 */
export function pointsOf(action: 'credit' | 'reverse', value: number, name: string): number {
  if (action === 'credit' && value < 0) throw new PostbackFormatError('amount', `${name} is negative on a credit`);
  return toPoints(value);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Our user id, if the value is one (walls echo back the id we gave them). */
export const userIdOf = (value: string): string | null => (UUID.test(value) ? value.toLowerCase() : null);

/** Builds a postback URL the way a provider's server would, for the emulator and the tests. */
export function withQuery(endpoint: string, params: Record<string, string>): string {
  const query = Object.entries(params)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join('&');
  return `${endpoint}${endpoint.includes('?') ? '&' : '?'}${query}`;
}

/** The offer's name a wall sent, as the user's history shows it: trimmed, at most 200 characters; absent when empty. */
export function offerNameOf(p: PostbackParams, name: string): { offerName?: string } {
  const value = p.get(name)?.trim();
  return value ? { offerName: value.slice(0, 200) } : {};
}
