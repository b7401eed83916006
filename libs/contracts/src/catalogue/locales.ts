/** Interface languages, Portuguese first (the default). */
export const LOCALES = ['pt', 'es', 'en', 'fr', 'de', 'it', 'ru', 'ja', 'ko', 'zh', 'ur', 'id', 'fil', 'vi', 'hi', 'th', 'ms', 'bn'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'pt';
export const RTL_LOCALES: readonly Locale[] = ['ur'];
/**
 * The cookie that remembers the interface language the visitor chose (the SPA sets it with
 * localStorage), so the gateway can send a returning visitor the page pre-rendered in that
 * language: nothing switches language or direction after the first paint.
 */
export const LOCALE_COOKIE = 'locale';

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** Best supported locale for an Accept-Language header or a loose tag such as "pt-BR". */
export function pickLocale(...candidates: Array<string | undefined | null>): Locale {
  for (const candidate of candidates) {
    if (!candidate) continue;
    for (const part of candidate.split(',')) {
      const tag = part.split(';')[0].trim().toLowerCase();
      if (isLocale(tag)) return tag;
      const base = tag.split('-')[0];
      if (base === 'tl') return 'fil';
      if (isLocale(base)) return base;
    }
  }
  return DEFAULT_LOCALE;
}
