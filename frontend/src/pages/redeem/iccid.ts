import { iccidSchema } from '@esim/contracts';

/**
 * What a person types or pastes as an ICCID, as the server expects it: phones show ICCIDs in groups
 * ("8901 2345 …") and some apps add dashes, so whitespace and dashes are dropped.
 */
export function normalizeIccid(value: string): string {
  return value.replace(/[\s-]/g, '');
}

/** The contract's rule (docs/redemption.md): digits only, 19 or 20 long, starting with 89. */
export function isValidIccid(value: string): boolean {
  return iccidSchema.safeParse(normalizeIccid(value)).success;
}

/**
 * An ICCID for display where it need not be read in full (spec section 9): the first 5 and the
 * last 3 characters. Short or empty values are shown as they are (nothing to hide).
 */
export function maskIccid(value: string | null | undefined): string {
  const iccid = (value ?? '').trim();
  if (iccid.length <= 8) return iccid;
  return `${iccid.slice(0, 5)}••••${iccid.slice(-3)}`;
}
