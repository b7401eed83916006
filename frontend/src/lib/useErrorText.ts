import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { apiErrorMessage, NetworkError } from './api';

/** apiErrorMessage, with the network failure text in the user's language. */
export function useErrorText(): (error: unknown, fallback?: string) => string {
  const { t } = useTranslation();
  return useCallback(
    (error: unknown, fallback?: string) => {
      if (error instanceof NetworkError) return t('errors.network');
      const message = apiErrorMessage(error);
      return message || fallback || t('errors.generic');
    },
    [t],
  );
}
