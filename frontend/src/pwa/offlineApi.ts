/**
 * What the service worker (sw.ts) keeps so that the wallet opens without a connection, as pure
 * functions (offlineApi.spec.ts). The rules (docs/wallet.md, "Offline"):
 * - only the answers My eSIMs and the setup guide read are kept, and only the last network answer
 *   of each; they are served only when the network cannot be reached, never instead of an answer;
 * - they belong to one session: signing in or out, deleting the account, a 401 or another user's
 *   /api/user forget them all.
 */

/** GET answers kept for reading offline, by path (the query is not part of the key). */
export const OFFLINE_READS: readonly string[] = ['/api/user', '/api/esim-lines', '/api/esim-purchases'];
const LINE_USAGE = /^\/api\/esim-lines\/[^/]+\/usage$/;

export function isOfflineRead(pathname: string): boolean {
  return OFFLINE_READS.includes(pathname) || LINE_USAGE.test(pathname);
}

/** Requests after which whatever was kept belongs to nobody any more (method and path). */
export const SESSION_CHANGES: ReadonlyArray<readonly [method: string, path: string]> = [
  ['POST', '/api/login'],
  ['POST', '/api/logout'],
  ['POST', '/api/verify-email'],
  ['POST', '/api/reset-password'],
  ['DELETE', '/api/user/account'],
];

export function changesSession(method: string, pathname: string): boolean {
  return SESSION_CHANGES.some(([m, p]) => m === method.toUpperCase() && p === pathname);
}

/** The id of a `/api/user` answer, or null (signed out, or not a user). */
export function userIdOf(body: unknown): string | null {
  return body && typeof body === 'object' && typeof (body as { id?: unknown }).id === 'string' ? (body as { id: string }).id : null;
}

/** True when a fresh `/api/user` answer is another account than the one the kept answers belong to. */
export function isAnotherUser(keptUser: unknown, freshUser: unknown): boolean {
  const kept = userIdOf(keptUser);
  return kept !== null && kept !== userIdOf(freshUser);
}

/** The LPA code a `POST /api/generate-qr` body asks a QR code for. */
export function lpaOfQrRequest(body: string): string | null {
  try {
    const data = (JSON.parse(body) as { data?: unknown }).data;
    return typeof data === 'string' && data.trim() ? data : null;
  } catch {
    return null;
  }
}

interface WithQr {
  lpaCode?: unknown;
  qrCode?: unknown;
}

/**
 * The QR code of `lpa` from the kept wallet answers (`{ lines: [...] }` of /api/esim-lines, the
 * array of /api/esim-purchases): both carry each eSIM's QR as a PNG data URL of its LPA code,
 * which is exactly what `POST /api/generate-qr` would draw.
 */
export function qrFromWallet(lpa: string, answers: unknown[]): string | null {
  for (const answer of answers) {
    const items: unknown = Array.isArray(answer) ? answer : (answer as { lines?: unknown } | null)?.lines;
    if (!Array.isArray(items)) continue;
    for (const item of items as WithQr[]) {
      if (item && item.lpaCode === lpa && typeof item.qrCode === 'string' && /^data:image\/png;base64,/.test(item.qrCode))
        return item.qrCode;
    }
  }
  return null;
}

/** A base64 data URL as its media type and bytes. */
export function decodeDataUrl(url: string): { type: string; bytes: Uint8Array<ArrayBuffer> } | null {
  const match = /^data:([\w/+.-]+);base64,([A-Za-z0-9+/=\s]+)$/.exec(url);
  if (!match) return null;
  const binary = atob(match[2].replace(/\s/g, ''));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return { type: match[1], bytes };
}

/**
 * The app shell as kept for offline starts. The gateway marks a document fetched without a
 * session cookie `data-session="none"` (the app then asks nothing about the session); offline,
 * the app must ask, so that the kept /api/user answer can sign it in.
 */
export function offlineShell(html: string): string {
  return html.replace(/<div id="root" data-session="none"/, '<div id="root"');
}

/** A short, stable name for one build's precache list: the shell is kept per build. */
export function buildVersion(entries: ReadonlyArray<string | { url: string; revision?: string | null }>): string {
  let hash = 5381;
  for (const entry of entries) {
    const text = typeof entry === 'string' ? entry : `${entry.url}@${entry.revision ?? ''}`;
    for (let i = 0; i < text.length; i++) hash = ((hash << 5) + hash + text.charCodeAt(i)) | 0;
  }
  return (hash >>> 0).toString(36);
}
