/**
 * The LPA activation code (GSMA SGP.22 §4.1, docs/redemption-screens.md):
 * `LPA:1$<SM-DP+ address>$<matching id>[$<OID>[$<confirmation code flag>]]`. In a QR code it
 * carries the `LPA:` prefix; some systems hand out the bare `1$…` form.
 */
export interface LpaParts {
  /** SM-DP+ address (a host name, no scheme): "SM-DP+ Address" in the phone's manual entry. */
  address: string;
  /** Matching ID: "Activation Code" in the phone's manual entry (may be empty). */
  matchingId: string;
  /** The SM-DP+ OID (an object identifier), when the code carries one; phones rarely ask for it. */
  oid: string | null;
  /**
   * The flag `1`: the phone will ask for a confirmation code. The code carries only this flag; the
   * confirmation code itself is delivered separately (SGP.22 §4.1).
   */
  confirmationRequired: boolean;
}

export function parseLpa(code: string | null | undefined): LpaParts | null {
  const value = (code ?? '').trim().replace(/^LPA:/i, '');
  const fields = value.split('$');
  if (fields[0] !== '1' || !fields[1]) return null;
  return { address: fields[1], matchingId: fields[2] ?? '', oid: fields[3] || null, confirmationRequired: fields[4] === '1' };
}

/** The code as a QR code and Apple's installer expect it: with the `LPA:` prefix. */
export function withLpaPrefix(code: string): string {
  const value = code.trim();
  return /^LPA:/i.test(value) ? `LPA:${value.slice(4)}` : `LPA:${value}`;
}

/** Apple's one-tap eSIM installation link (iOS 17.4 and later), docs/redemption-screens.md. */
export function appleOneTapUrl(code: string): string {
  return `https://esimsetup.apple.com/esim_qrcode_provisioning?carddata=${encodeURIComponent(withLpaPrefix(code))}`;
}

/**
 * Android's direct eSIM install link (the counterpart of Apple's, handled by Android's eSIM setup on
 * phones whose maker supports it): best effort, so the page always offers the QR code as well.
 */
export function androidInstallUrl(code: string): string {
  return `https://esimsetup.android.com/esim_qrcode_provisioning?carddata=${encodeURIComponent(withLpaPrefix(code))}`;
}

export type DevicePlatform = 'iphone' | 'android' | 'other';

/** iPadOS reports a Mac; a Mac with a touch screen is an iPad. */
export function detectPlatform(userAgent: string, maxTouchPoints = 0): DevicePlatform {
  if (/android/i.test(userAgent)) return 'android';
  if (/iphone|ipad|ipod/i.test(userAgent)) return 'iphone';
  if (/macintosh/i.test(userAgent) && maxTouchPoints > 1) return 'iphone';
  return 'other';
}

/** The iOS version of an iPhone/iPad user agent ("CPU iPhone OS 17_4 like Mac OS X"), or null. */
export function iosVersion(userAgent: string): { major: number; minor: number } | null {
  const match = /(?:iPhone|CPU) OS (\d+)[_.](\d+)/i.exec(userAgent);
  if (!match || !/iphone|ipad|ipod/i.test(userAgent)) return null;
  return { major: Number(match[1]), minor: Number(match[2]) };
}

/** True on iOS 17.4 or later, where Apple's one-tap link installs the eSIM directly. */
export function supportsAppleOneTap(userAgent: string): boolean {
  const v = iosVersion(userAgent);
  return !!v && (v.major > 17 || (v.major === 17 && v.minor >= 4));
}
