import type { StripeElementLocale } from '@stripe/stripe-js';

/** Interface languages Stripe's Payment Element speaks; the others (hi, bn, ur) let Stripe choose. */
const STRIPE_LOCALES: Record<string, StripeElementLocale> = {
  pt: 'pt-BR',
  en: 'en',
  es: 'es-419',
  fr: 'fr',
  de: 'de',
  it: 'it',
  ru: 'ru',
  zh: 'zh',
  ja: 'ja',
  ko: 'ko',
  id: 'id',
  ms: 'ms',
  th: 'th',
  vi: 'vi',
  fil: 'fil',
};

export function stripeLocale(language: string): StripeElementLocale {
  return STRIPE_LOCALES[language] ?? 'auto';
}
