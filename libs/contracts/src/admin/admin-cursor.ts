import { z } from 'zod';

/**
 * Keyset paging cursors of the admin tables: the sort value and the id of the last row seen, as
 * hex of their JSON (TextEncoder: the same code runs in Node and in the SPA). Opaque to the SPA;
 * the owning service decodes it and refuses anything it did not make.
 */
export const adminCursorSchema = z.string().max(600).regex(/^(?:[0-9a-f]{2})+$/, 'cursor must come from a previous page');

export type CursorKey = [value: string | number | null, id: string];

export function encodeAdminCursor(key: CursorKey): string {
  return Array.from(new TextEncoder().encode(JSON.stringify(key)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The key of a cursor; null when it is not one this code made. */
export function decodeAdminCursor(cursor: string): CursorKey | null {
  if (!/^(?:[0-9a-f]{2})+$/.test(cursor)) return null;
  try {
    const bytes = new Uint8Array(cursor.length / 2);
    for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(cursor.slice(i * 2, i * 2 + 2), 16);
    const parsed: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    if (!Array.isArray(parsed) || parsed.length !== 2) return null;
    const [value, id] = parsed as unknown[];
    if (typeof id !== 'string' || !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return null;
    if (value !== null && typeof value !== 'string' && typeof value !== 'number') return null;
    return [value, id];
  } catch {
    return null;
  }
}
