import type { Request } from 'express';
import { DEVICE_ID_HEADER, deviceIdSchema } from '@esim/contracts';

/**
 * The SPA's first-party device id (`X-Device-Id`, a random UUID it keeps in its own storage),
 * passed to identity at sign-up and sign-in as a fraud signal (docs/earning.md, "Referrals"). A
 * missing or malformed header is no device at all, never an error: it only ever links accounts.
 */
export function deviceIdOf(req: Request): string | undefined {
  const parsed = deviceIdSchema.safeParse(req.headers[DEVICE_ID_HEADER]);
  return parsed.success ? parsed.data : undefined;
}
