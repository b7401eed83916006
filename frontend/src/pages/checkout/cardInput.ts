/**
 * The sandbox card form's fields, read the way Stripe's card element reads them: the number as
 * digits (shown in groups of four), the expiry as MM/YY, the security code as 3–4 digits. Only the
 * shape is checked here; whether the card pays is the payment provider's answer.
 */

export const digitsOnly = (value: string): string => value.replace(/\D/g, '');

/** `4242424242424242` → `4242 4242 4242 4242` (at most 19 digits). */
export function formatCardNumber(value: string): string {
  return digitsOnly(value)
    .slice(0, 19)
    .replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** What the person typed as expiry, shown as `MM / YY`. */
export function formatExpiry(value: string): string {
  const digits = digitsOnly(value).slice(0, 4);
  // A first digit above 1 can only be a one-digit month.
  const normalized = digits.length === 1 && Number(digits) > 1 ? `0${digits}` : digits;
  return normalized.length > 2 ? `${normalized.slice(0, 2)} / ${normalized.slice(2)}` : normalized;
}

export interface Expiry {
  month: number;
  /** Four digits. */
  year: number;
}

export function parseExpiry(value: string): Expiry | null {
  const digits = digitsOnly(value);
  if (digits.length !== 4) return null;
  const month = Number(digits.slice(0, 2));
  if (month < 1 || month > 12) return null;
  return { month, year: 2000 + Number(digits.slice(2)) };
}

export type CardField = 'number' | 'expiry' | 'cvc';
export type CardFieldError = 'required' | 'invalid' | 'expired';

export interface CardDetails {
  number: string;
  expMonth: number;
  expYear: number;
  cvc: string;
}

/** The card, or which field is wrong and why (`now` decides what "expired" means). */
export function readCard(
  input: { number: string; expiry: string; cvc: string },
  now: Date = new Date(),
): { card: CardDetails } | { errors: Partial<Record<CardField, CardFieldError>> } {
  const errors: Partial<Record<CardField, CardFieldError>> = {};
  const number = digitsOnly(input.number);
  if (!number) errors.number = 'required';
  else if (number.length < 12 || number.length > 19) errors.number = 'invalid';

  const expiry = parseExpiry(input.expiry);
  if (!digitsOnly(input.expiry)) errors.expiry = 'required';
  else if (!expiry) errors.expiry = 'invalid';
  else if (expiry.year < now.getFullYear() || (expiry.year === now.getFullYear() && expiry.month < now.getMonth() + 1))
    errors.expiry = 'expired';

  const cvc = digitsOnly(input.cvc);
  if (!cvc) errors.cvc = 'required';
  else if (cvc.length < 3 || cvc.length > 4) errors.cvc = 'invalid';

  if (Object.keys(errors).length > 0 || !expiry) return { errors };
  return { card: { number, expMonth: expiry.month, expYear: expiry.year, cvc } };
}

/** Stripe's test cards the sandbox form lists (docs/payments.md): what each one does. */
export const SANDBOX_TEST_CARDS = [
  { number: '4242424242424242', outcome: 'succeeds' },
  { number: '4000000000000002', outcome: 'declined' },
  { number: '4000000000009995', outcome: 'insufficientFunds' },
] as const;
