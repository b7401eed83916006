/**
 * Client-side mirrors of the server's rules (the server decides; these only help people early).
 *
 * The password bounds mirror PASSWORD_MIN_LENGTH / PASSWORD_MAX_LENGTH of @esim/contracts. They are
 * not imported because that module also builds the zod schemas, and importing it would add zod
 * (~25 KB gzipped) to every auth page; validation.spec.ts keeps the two in step.
 */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isValidEmail(value: string): boolean {
  return EMAIL_PATTERN.test(value.trim());
}

export function isValidPassword(value: string): boolean {
  return value.length >= PASSWORD_MIN_LENGTH && value.length <= PASSWORD_MAX_LENGTH;
}
