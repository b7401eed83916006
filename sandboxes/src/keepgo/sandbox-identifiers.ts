import { randomInt } from 'node:crypto';

/** SM-DP+ address of sandbox activation codes: `.invalid` never resolves (RFC 2606), so no phone can download a fake profile. */
export const SANDBOX_SMDP_ADDRESS = 'smdp.keepgo-sandbox.invalid';
/** Issuer prefix of sandbox ICCIDs: MII 89, then 999 (no country uses it), so they are easy to tell from real ones. */
const SANDBOX_ICCID_PREFIX = '89999';
const MATCHING_ID_ALPHABET = '0123456789ABCDEFGHJKLMNPQRSTUVWXYZ';

/** The Luhn check digit of a digit string (ITU-T E.118 ends an ICCID with one). */
export function luhnCheckDigit(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return (10 - (sum % 10)) % 10;
}

export function luhnValid(number: string): boolean {
  return /^\d{2,}$/.test(number) && luhnCheckDigit(number.slice(0, -1)) === Number(number.slice(-1));
}

/** A new 19-digit ICCID (18 digits and a Luhn check digit), as real 19-digit eSIM ICCIDs are. */
export function newSandboxIccid(): string {
  let body = SANDBOX_ICCID_PREFIX;
  while (body.length < 18) body += String(randomInt(10));
  return `${body}${luhnCheckDigit(body)}`;
}

/** SGP.22 activation code with a fresh matching id: `LPA:1$<SM-DP+ address>$<matching id>`. */
export function newSandboxLpaCode(): string {
  const groups = Array.from({ length: 4 }, () =>
    Array.from({ length: 5 }, () => MATCHING_ID_ALPHABET[randomInt(MATCHING_ID_ALPHABET.length)]).join(''),
  );
  return sandboxLpaCode(groups.join('-'));
}

export const sandboxLpaCode = (matchingId: string) => `LPA:1$${SANDBOX_SMDP_ADDRESS}$${matchingId}`;
