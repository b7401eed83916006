/**
 * The Luhn check digit of an ICCID (ITU-T E.118). Many real ICCIDs fail it, so a failure is only
 * logged, never refused (docs/redemption.md): the provider's lookup is the real check.
 */
export function passesLuhn(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/**
 * An ICCID as shown to someone who topped up a line that is not in their wallet (docs/decisions.md,
 * "Topping up someone else's eSIM"): its last 4 digits only. Enough to tell which line was topped
 * up, never enough to name it.
 */
export function maskIccid(iccid: string): string {
  return `••••${iccid.trim().slice(-4)}`;
}
