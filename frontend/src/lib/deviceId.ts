/**
 * The first-party device id (docs/earning.md, "Referrals"): a random UUID this browser keeps in its
 * own storage and sends as `X-Device-Id`, so the product can see two accounts used from one
 * device. Kept on the device only; no fingerprinting. Without storage (private modes that refuse
 * it) there is simply no id.
 */
const DEVICE_KEY = 'dg.deviceId';
const REFERRAL_KEY = 'dg.referralCode';

const uuid = (): string | null => (typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : null);

export function deviceId(): string | null {
  try {
    const known = localStorage.getItem(DEVICE_KEY);
    if (known) return known;
    const fresh = uuid();
    if (fresh) localStorage.setItem(DEVICE_KEY, fresh);
    return fresh;
  } catch {
    return null;
  }
}

/** A friend's invitation code from the link (`/auth?signup=true&ref=<code>`), kept until the sign-up is verified. */
export function rememberReferralCode(code: string | null): void {
  if (!code || !/^[A-Za-z0-9]{8}$/.test(code)) return;
  try {
    sessionStorage.setItem(REFERRAL_KEY, code.toUpperCase());
  } catch {
    // No storage: the code cannot travel to the verification step.
  }
}

export function referralCode(): string | undefined {
  try {
    return sessionStorage.getItem(REFERRAL_KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

export function forgetReferralCode(): void {
  try {
    sessionStorage.removeItem(REFERRAL_KEY);
  } catch {
    // Nothing kept.
  }
}
