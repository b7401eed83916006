import type { Locale } from '@esim/contracts';
import pt from './pt.json';
import es from './es.json';
import en from './en.json';
import fr from './fr.json';
import de from './de.json';
import it from './it.json';
import ru from './ru.json';
import ja from './ja.json';
import ko from './ko.json';
import zh from './zh.json';
import ur from './ur.json';
import id from './id.json';
import fil from './fil.json';
import vi from './vi.json';
import hi from './hi.json';
import th from './th.json';
import ms from './ms.json';
import bn from './bn.json';

export type EmailMessages = typeof en;

/** Email texts per interface language; every locale has the keys English has (see email-locales.spec.ts). */
export const EMAIL_MESSAGES: Record<Locale, EmailMessages> = { pt, es, en, fr, de, it, ru, ja, ko, zh, ur, id, fil, vi, hi, th, ms, bn };
