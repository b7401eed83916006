/** The compressed forms the gateway keeps of static files and documents, best first. */
export const CODINGS = ['br', 'gzip'] as const;
export type Coding = (typeof CODINGS)[number];

/** File suffix of each compressed copy (frontend/scripts/compress.mjs writes them). */
export const CODING_SUFFIX: Record<Coding, string> = { br: '.br', gzip: '.gz' };

/**
 * The coding to answer with, from an Accept-Encoding header (RFC 9110 section 12.5.3): the
 * acceptable one (q > 0, named or through `*`) with the highest weight, brotli first on a tie
 * since it is the smaller; null means the file as it is. Browsers list gzip before br with equal
 * weights, so the client's order is deliberately not the tie-breaker.
 */
export function pickCoding(acceptEncoding: string | undefined, available: readonly Coding[]): Coding | null {
  if (!acceptEncoding) return null;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    let q = 1;
    for (const param of params) {
      const [key, value] = param.trim().split('=');
      if (key === 'q') q = Number(value);
    }
    if (!Number.isFinite(q)) q = 0;
    // x-gzip is gzip's old name (RFC 9110 section 8.4.1.3).
    weights.set(name === 'x-gzip' ? 'gzip' : name, Math.max(0, Math.min(1, q)));
  }
  let best: Coding | null = null;
  let bestQ = 0;
  for (const coding of CODINGS) {
    if (!available.includes(coding)) continue;
    const q = weights.get(coding) ?? weights.get('*') ?? 0;
    if (q > bestQ) {
      best = coding;
      bestQ = q;
    }
  }
  return best;
}
