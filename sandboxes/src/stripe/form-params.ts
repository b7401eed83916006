import { StripeEmulatorError } from './stripe-emulator-error';

export type Params = Record<string, unknown>;

/**
 * Stripe's form encoding writes nested parameters as `a[b][c]=v` (and arrays as `a[0]=v`).
 * Parsers differ: some nest them, some keep the flat keys; this nests whatever is still flat.
 */
export function nestParams(input: Params): Params {
  const out: Params = {};
  for (const [key, value] of Object.entries(input)) {
    const match = key.match(/^([^[\]]+)((?:\[[^[\]]*\])+)$/);
    if (!match) {
      out[key] = value !== null && typeof value === 'object' && !Array.isArray(value) ? nestParams(value as Params) : value;
      continue;
    }
    const path = [match[1], ...[...match[2].matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1])];
    let node = out;
    for (const [i, part] of path.entries()) {
      if (i === path.length - 1) {
        node[part] = value;
      } else {
        const next = node[part];
        node = (next !== null && typeof next === 'object' ? next : (node[part] = {})) as Params;
      }
    }
  }
  return out;
}

/** Stripe treats `{ "0": a, "1": b }` and `[a, b]` alike. */
export function asList(value: unknown): unknown[] | undefined {
  if (value === undefined) return undefined;
  if (Array.isArray(value)) return value;
  if (value !== null && typeof value === 'object') return Object.values(value);
  return [value];
}

export function readInt(params: Params, name: string, opts: { required?: boolean } = {}): number | undefined {
  const value = params[name];
  if (value === undefined || value === '') {
    if (opts.required) throw StripeEmulatorError.invalid(`Missing required param: ${name}.`, { code: 'parameter_missing', param: name });
    return undefined;
  }
  const text = String(value);
  if (!/^-?\d{1,12}$/.test(text)) throw StripeEmulatorError.invalid(`Invalid integer: ${text}`, { code: 'parameter_invalid_integer', param: name });
  return Number(text);
}

export function readString(params: Params, name: string, opts: { required?: boolean; max?: number } = {}): string | undefined {
  const value = params[name];
  if (value === undefined || value === '') {
    if (opts.required) throw StripeEmulatorError.invalid(`Missing required param: ${name}.`, { code: 'parameter_missing', param: name });
    return undefined;
  }
  if (typeof value !== 'string' && typeof value !== 'number') throw StripeEmulatorError.invalid(`Invalid string: ${name}`, { code: 'parameter_invalid_string', param: name });
  const text = String(value);
  if (opts.max !== undefined && text.length > opts.max)
    throw StripeEmulatorError.invalid(`Invalid string: ${text.slice(0, 20)}...; must be at most ${opts.max} characters`, { code: 'parameter_invalid_string', param: name });
  return text;
}

export function readBoolean(params: Params, name: string): boolean | undefined {
  const value = params[name];
  if (value === undefined || value === '') return undefined;
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw StripeEmulatorError.invalid(`Invalid boolean: ${String(value)}`, { code: 'parameter_invalid_boolean', param: name });
}

/** Stripe's metadata rules: at most 50 keys, keys up to 40 characters, values up to 500, strings only. */
export function readMetadata(params: Params, name = 'metadata'): Record<string, string> | undefined {
  const value = params[name];
  if (value === undefined || value === '') return value === '' ? {} : undefined;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw StripeEmulatorError.invalid('Invalid object', { code: 'parameter_invalid_string', param: name });
  const entries = Object.entries(value as Params);
  if (entries.length > 50) throw StripeEmulatorError.invalid('You can specify up to 50 keys.', { param: name });
  const out: Record<string, string> = {};
  for (const [key, v] of entries) {
    if (key.length > 40) throw StripeEmulatorError.invalid(`Metadata keys can have up to 40 characters; "${key}" has ${key.length}.`, { param: `${name}[${key}]` });
    const text = typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? String(v) : null;
    if (text === null) throw StripeEmulatorError.invalid('Invalid string', { code: 'parameter_invalid_string', param: `${name}[${key}]` });
    if (text.length > 500) throw StripeEmulatorError.invalid('Metadata values can have up to 500 characters.', { param: `${name}[${key}]` });
    if (text !== '') out[key] = text;
  }
  return out;
}

/** Stripe refuses a parameter it does not know. */
export function refuseUnknown(params: Params, known: readonly string[]): void {
  for (const key of Object.keys(params)) {
    if (!known.includes(key)) throw StripeEmulatorError.invalid(`Received unknown parameter: ${key}`, { code: 'parameter_unknown', param: key });
  }
}
