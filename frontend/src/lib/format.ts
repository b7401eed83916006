import { isLocale, type Locale } from '@esim/contracts';

/**
 * Intl formatters are costly to build (locale data is loaded for each one) and pages format many
 * numbers while rendering, so each is built once per locale (and options) and reused.
 */
function cached<F>(cache: Map<string, F | null>, key: string, build: () => F): F | null {
  if (!cache.has(key)) {
    try {
      cache.set(key, build());
    } catch {
      cache.set(key, null);
    }
  }
  return cache.get(key) ?? null;
}

const numberFormats = new Map<string, Intl.NumberFormat | null>();
const dateFormats = new Map<string, Intl.DateTimeFormat | null>();

const numberFormat = (locale: string) => cached(numberFormats, locale, () => new Intl.NumberFormat(locale));

/**
 * The numbers and dates a pre-rendered page shows, as the build formatted them
 * (scripts/prerender.mjs writes them into the page as #prerendered-formats). Hydrating that page
 * then builds no Intl format: on a phone the first one loads the locale's data in a single step of
 * about 150 ms, longer than a task may take without holding up a tap (Lighthouse's total blocking
 * time). Later renders in that locale reuse them too: they are what the page already shows.
 */
const PRERENDERED_FORMATS_ID = 'prerendered-formats';
type Formatted = { locale: string; texts: Record<string, string> };
let atBuild: Formatted | null | undefined;
/** What the pre-renderer (Node) formatted since the last takeFormatted(), by locale. */
const formattedHere = new Map<string, Record<string, string>>();

function readAtBuild(): Formatted | null {
  try {
    const json = typeof document === 'undefined' ? null : document.getElementById(PRERENDERED_FORMATS_ID)?.textContent;
    return json ? (JSON.parse(json) as Formatted) : null;
  } catch {
    return null;
  }
}

/** `format()` in `locale`, unless the build already formatted `key` for this page. */
function formatOnce(locale: string, key: string, format: () => string): string {
  if (atBuild === undefined) atBuild = readAtBuild();
  if (atBuild?.locale === locale && Object.hasOwn(atBuild.texts, key)) return atBuild.texts[key];
  const text = format();
  if (typeof window === 'undefined') formattedHere.set(locale, { ...formattedHere.get(locale), [key]: text });
  return text;
}

/** The pre-renderer's record of what the page it rendered last formatted (entry-server.tsx). */
export function takeFormatted(): Formatted[] {
  const taken = [...formattedHere].map(([locale, texts]) => ({ locale, texts }));
  formattedHere.clear();
  return taken;
}

/** The script element that carries a pre-rendered page's formatted numbers and dates (scripts/prerender.mjs). */
export function prerenderedFormatsScript({ locale, texts }: Formatted): string {
  // JSON inside <script>: "<" escaped so no text can close the element.
  const json = JSON.stringify({ locale, texts }).replace(/</g, '\\u003c');
  return `<script type="application/json" id="${PRERENDERED_FORMATS_ID}">${json}</script>`;
}

export function formatNumber(value: number, locale: string): string {
  return formatOnce(locale, `n ${value}`, () => numberFormat(locale)?.format(value) ?? String(value));
}

const currencyFormats = new Map<string, Intl.NumberFormat | null>();

/**
 * A price: `cents` minor units of `currency` (ISO 4217, as the API answers it; Stripe's lower case
 * is accepted), written the way the interface language writes money: "R$ 19,90" in Portuguese,
 * "R$19.90" in English. The currency is the price's own (from the API), the format the locale's.
 */
export function formatPrice(cents: number, currency: string, locale: string): string {
  const code = currency.toUpperCase();
  return formatOnce(locale, `p ${code} ${cents}`, () => {
    const format = cached(currencyFormats, `${locale} ${code}`, () => new Intl.NumberFormat(locale, { style: 'currency', currency: code }));
    return format?.format(cents / 100) ?? `${code} ${(cents / 100).toFixed(2)}`;
  });
}

export function formatDate(
  value: string | number | Date,
  locale: string,
  options: Intl.DateTimeFormatOptions = { dateStyle: 'long' },
): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  const style = JSON.stringify(options);
  return formatOnce(
    locale,
    `d ${style} ${date.getTime()}`,
    () => cached(dateFormats, `${locale} ${style}`, () => new Intl.DateTimeFormat(locale, options))?.format(date) ?? date.toDateString(),
  );
}

const regionNames = new Map<string, Intl.DisplayNames | null>();

/** A country's name in the interface language (Intl), falling back to its code. */
export function countryName(code: string, locale: string): string {
  return cached(regionNames, locale, () => new Intl.DisplayNames([locale], { type: 'region' }))?.of(code) ?? code;
}

/**
 * Each interface language named in itself, as Intl.DisplayNames names it (capitalised). Written out
 * because building 18 DisplayNames loads 18 locales' data, which cost a phone a long task on every
 * page with the language selector; a new catalogue locale fails to compile until it is named here.
 */
const NATIVE_LANGUAGE_NAMES: Record<Locale, string> = {
  pt: 'Português',
  es: 'Español',
  en: 'English',
  fr: 'Français',
  de: 'Deutsch',
  it: 'Italiano',
  ru: 'Русский',
  ja: '日本語',
  ko: '한국어',
  zh: '中文',
  ur: 'اردو',
  id: 'Indonesia',
  fil: 'Filipino',
  vi: 'Tiếng Việt',
  hi: 'हिन्दी',
  th: 'ไทย',
  ms: 'Melayu',
  bn: 'বাংলা',
};

/** A language's name in that language ("Português", "日本語"), for the language selector. */
export function nativeLanguageName(code: string): string {
  if (isLocale(code)) return NATIVE_LANGUAGE_NAMES[code];
  try {
    const name = new Intl.DisplayNames([code], { type: 'language' }).of(code) ?? code;
    return name.charAt(0).toLocaleUpperCase(code) + name.slice(1);
  } catch {
    return code;
  }
}

/** Initials for an avatar. */
export function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0) return '?';
  const first = Array.from(parts[0])[0] ?? '';
  const last = parts.length > 1 ? (Array.from(parts[parts.length - 1])[0] ?? '') : '';
  return (first + last).toUpperCase();
}

/** Whole days since a date, counting the first day as day 1. */
export function daysSince(value: string, now: Date = new Date()): number {
  const start = new Date(value).getTime();
  if (Number.isNaN(start)) return 1;
  return Math.max(1, Math.floor((now.getTime() - start) / 86_400_000) + 1);
}
