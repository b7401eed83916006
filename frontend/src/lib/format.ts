import { formatUsd } from '@esim/contracts';

export function formatNumber(value: number, locale: string): string {
  try {
    return new Intl.NumberFormat(locale).format(value);
  } catch {
    return String(value);
  }
}

/** Plan prices: cents / 100 with two decimals (spec section 9), in US dollars. */
export function formatPrice(cents: number): string {
  return `$${formatUsd(cents)}`;
}

export function formatDate(value: string | number | Date, locale: string, options: Intl.DateTimeFormatOptions = { dateStyle: 'long' }): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  try {
    return new Intl.DateTimeFormat(locale, options).format(date);
  } catch {
    return date.toDateString();
  }
}

const regionNames = new Map<string, Intl.DisplayNames | null>();

/** A country's name in the interface language (Intl), falling back to its code. */
export function countryName(code: string, locale: string): string {
  if (!regionNames.has(locale)) {
    try {
      regionNames.set(locale, new Intl.DisplayNames([locale], { type: 'region' }));
    } catch {
      regionNames.set(locale, null);
    }
  }
  return regionNames.get(locale)?.of(code) ?? code;
}

/** A language's name in that language ("Português", "日本語"), for the language selector. */
export function nativeLanguageName(code: string): string {
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
