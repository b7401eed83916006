import { Locale } from '@esim/contracts';
import pt from './pt.json';
import en from './en.json';

export type EmailMessages = typeof en;

/** Email texts per interface language; every locale has the keys English has (see email-locales.spec.ts). */
export const EMAIL_MESSAGES: Partial<Record<Locale, EmailMessages>> = { pt, en };
