import type { Request } from 'express';
import { AppError } from '@esim/platform';

/** How long a passkey ceremony may take, from its options to its answer. */
const CEREMONY_MS = 5 * 60_000;

/** Keeps the ceremony's challenge in the session: the answer must come back to the session that asked. */
export function keepChallenge(req: Request, purpose: 'register' | 'sign_in', challenge: string): void {
  req.session.webauthn = { challenge, purpose, until: Date.now() + CEREMONY_MS };
}

/** The challenge for this purpose, spent: each one is good for one answer. */
export function takeChallenge(req: Request, purpose: 'register' | 'sign_in', refused: () => AppError): string {
  const pending = req.session.webauthn;
  req.session.webauthn = undefined;
  if (!pending || pending.purpose !== purpose || pending.until < Date.now()) throw refused();
  return pending.challenge;
}
