import type { Request } from 'express';
import { Locale, pickLocale } from '@esim/contracts';

/** The language a visitor's emails go out in: what the app sent, else what the browser prefers. */
export function requestLocale(req: Request, chosen?: Locale): Locale {
  return chosen ?? pickLocale(req.headers['accept-language']);
}
