import { useCallback, useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { isLocale, type Locale, type UserView } from '@esim/contracts';
import { USER_QUERY_KEY, useAuth } from '../auth/AuthProvider';
import { apiRequest } from '../lib/api';
import { useErrorText } from '../lib/useErrorText';
import { useToast } from '../ui';
import { currentLocale, hasStoredLocale, storeLocale } from './index';

/**
 * The interface language and how to change it: remembered in localStorage, applied to <html lang
 * dir>, and saved on the account (so emails follow it) when someone is signed in.
 */
export function useLocale(): { locale: Locale; setLocale: (next: Locale) => Promise<void> } {
  const { i18n, t } = useTranslation();
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const { toast } = useToast();
  const errorText = useErrorText();
  const locale = isLocale(i18n.resolvedLanguage) ? i18n.resolvedLanguage : currentLocale();

  const setLocale = useCallback(
    async (next: Locale) => {
      storeLocale(next);
      await i18n.changeLanguage(next);
      if (!user || user.locale === next) return;
      try {
        await apiRequest('PATCH', '/api/user/settings', { locale: next });
        queryClient.setQueryData<UserView | null>(USER_QUERY_KEY, (old) => (old ? { ...old, locale: next } : old));
      } catch (error) {
        toast({ title: t('profile.toast.settingsFailed'), description: errorText(error), variant: 'destructive' });
      }
    },
    [i18n, user, queryClient, toast, t, errorText],
  );

  return { locale, setLocale };
}

/**
 * On a device with no remembered choice, a signed-in user's saved language wins (e.g. someone who
 * chose Japanese on their phone and now logs in on a new laptop).
 */
export function useAdoptAccountLocale(): void {
  const { user } = useAuth();
  const { i18n } = useTranslation();
  const done = useRef(false);
  useEffect(() => {
    if (!user || done.current) return;
    done.current = true;
    if (!hasStoredLocale() && isLocale(user.locale) && user.locale !== i18n.resolvedLanguage) {
      storeLocale(user.locale);
      void i18n.changeLanguage(user.locale);
    }
  }, [user, i18n]);
}
