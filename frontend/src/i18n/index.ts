import i18n from 'i18next';
import resourcesToBackend from 'i18next-resources-to-backend';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LOCALE, LOCALE_COOKIE, LOCALES, RTL_LOCALES, isLocale, pickLocale, type Locale } from '@esim/contracts';

export const LOCALE_STORAGE_KEY = 'locale';

function readStoredLocale(): Locale | null {
  try {
    const stored = window.localStorage.getItem(LOCALE_STORAGE_KEY);
    return isLocale(stored) ? stored : null;
  } catch {
    return null;
  }
}

/** A year: the choice outlives the session, as localStorage does. */
const LOCALE_COOKIE_MAX_AGE = 365 * 24 * 60 * 60;

/**
 * Remembers the choice in localStorage (read here) and in a cookie (read by the gateway, which
 * sends the page pre-rendered in that language: services/gateway/src/http/spa-documents.ts).
 */
export function storeLocale(locale: Locale): void {
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${LOCALE_COOKIE}=${locale}; Path=/; Max-Age=${LOCALE_COOKIE_MAX_AGE}; SameSite=Lax${secure}`;
  try {
    window.localStorage.setItem(LOCALE_STORAGE_KEY, locale);
  } catch {
    // private mode: the choice lasts for this page only
  }
}

/** True when this browser has an explicit language choice (query or earlier selection). */
export function hasStoredLocale(): boolean {
  return readStoredLocale() !== null;
}

/** `?lng=` (remembered), then the remembered choice, then Portuguese (the product default). */
export function detectInitialLocale(): Locale {
  const fromQuery = new URLSearchParams(window.location.search).get('lng');
  if (fromQuery) {
    const locale = isLocale(fromQuery) ? fromQuery : pickLocale(fromQuery);
    storeLocale(locale);
    return locale;
  }
  const stored = readStoredLocale();
  // A choice remembered before the cookie existed (or a cookie the browser dropped): written
  // again, so the next visit's first paint is already in that language.
  if (stored && !new RegExp(`(?:^|; )${LOCALE_COOKIE}=${stored}(?:;|$)`).test(document.cookie)) storeLocale(stored);
  return stored ?? DEFAULT_LOCALE;
}

export function isRtl(locale: string): boolean {
  return (RTL_LOCALES as readonly string[]).includes(locale);
}

function applyDocumentLocale(locale: string): void {
  const html = document.documentElement;
  html.lang = locale;
  html.dir = isRtl(locale) ? 'rtl' : 'ltr';
}

export function currentLocale(): Locale {
  return isLocale(i18n.resolvedLanguage) ? i18n.resolvedLanguage : isLocale(i18n.language) ? i18n.language : DEFAULT_LOCALE;
}

let ready: Promise<unknown> | undefined;

/**
 * Starts i18next in the active language and settles once that locale's chunk is loaded. Hydrating
 * a pre-rendered page waits for it, so the first client render has the same texts as the HTML
 * instead of suspending. Started on demand rather than when this module is imported: on a phone,
 * the first read of localStorage (detectInitialLocale) and i18next's set-up are each a long step,
 * so boot.tsx runs them in tasks apart from evaluating the app's code (Lighthouse counts every task
 * over 50 ms as blocking time).
 */
export function startI18n(
  initialLocale: Locale = typeof window === 'undefined' ? DEFAULT_LOCALE : detectInitialLocale(),
): Promise<unknown> {
  if (ready) return ready;
  // The build pre-renders public pages in Node (scripts/prerender.mjs), where there is no window:
  // there the language is always the default one, which is what those pages are rendered in.
  if (typeof window !== 'undefined') {
    applyDocumentLocale(initialLocale);
    i18n.on('languageChanged', applyDocumentLocale);
  }
  // Each locale is its own chunk, fetched on demand: the first load carries only the active one.
  ready = i18n
    .use(resourcesToBackend((language: string) => import(`./locales/${language}.json`).then((m: { default: unknown }) => m.default)))
    .use(initReactI18next)
    .init({
      lng: initialLocale,
      supportedLngs: [...LOCALES],
      // Every locale is complete (locales.spec.ts), so nothing else needs to be downloaded.
      fallbackLng: false,
      load: 'currentOnly',
      ns: ['translation'],
      defaultNS: 'translation',
      interpolation: { escapeValue: false },
      returnNull: false,
      react: { useSuspense: true },
    });
  return ready;
}

export default i18n;
