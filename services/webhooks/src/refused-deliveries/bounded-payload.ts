/** Characters kept of each part of a refused delivery's raw payload (URL, query, body, headers). */
export const REFUSED_PART_CHARS = 2048;
/** Characters kept of one header's value in a refused delivery. */
const HEADER_VALUE_CHARS = 256;

/** A refused delivery's raw payload as stored: each part capped, `truncated` when anything was cut. */
export interface BoundedPayload {
  method: string;
  url: string;
  query?: unknown;
  body: unknown;
  headers: Record<string, string>;
  truncated?: true;
}

/** The value itself when its JSON fits, else the start of its JSON as a string. */
function capped(value: unknown, cut: () => void): unknown {
  if (value === null || value === undefined) return value ?? null;
  const json = typeof value === 'string' ? value : JSON.stringify(value);
  if (json.length <= REFUSED_PART_CHARS) return value;
  cut();
  return json.slice(0, REFUSED_PART_CHARS);
}

/**
 * What is kept of a delivery that was refused: whoever can reach the door can send a refused one,
 * with up to the server's header limit and BODY_LIMIT of content, so its record is bounded —
 * a few kilobytes whatever it carried — while keeping what an operator looks for (the start of
 * the URL, the parameters, the headers by name). Accepted deliveries are kept whole: they come
 * from a provider, signed, at most once per transaction.
 */
export function boundedPayload(p: { method: string; url: string; query?: unknown; body: unknown; headers: Record<string, string> }): BoundedPayload {
  let truncated = false;
  const cut = () => {
    truncated = true;
  };
  const headers: Record<string, string> = {};
  let room = REFUSED_PART_CHARS;
  for (const [name, value] of Object.entries(p.headers)) {
    const kept = value.length > HEADER_VALUE_CHARS ? (cut(), value.slice(0, HEADER_VALUE_CHARS)) : value;
    room -= name.length + kept.length;
    if (room < 0) {
      cut();
      break;
    }
    headers[name] = kept;
  }
  const url = p.url.length > REFUSED_PART_CHARS ? (cut(), p.url.slice(0, REFUSED_PART_CHARS)) : p.url;
  const bounded: BoundedPayload = { method: p.method.slice(0, 16), url, body: capped(p.body, cut), headers };
  if (p.query !== undefined) bounded.query = capped(p.query, cut);
  if (truncated) bounded.truncated = true;
  return bounded;
}
