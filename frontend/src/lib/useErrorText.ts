import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage, GENERIC } from './errorMessages';

/** The text of a failed call in the user's language, by its declared reason (errorMessages.ts). */
export function useErrorText(): (error: unknown, fallback?: string) => string {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? i18n.language;
  return useCallback(
    (error: unknown, fallback?: string) => {
      const format = new Intl.NumberFormat(language);
      const message = errorMessage(error, (n) => format.format(n));
      if ('text' in message) return message.text;
      if (message === GENERIC && fallback) return fallback;
      return t(message.key, message.values);
    },
    [t, language],
  );
}
