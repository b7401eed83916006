import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Passkey, PasskeysResponse } from '@esim/contracts';
import { apiJson, getQueryFn } from '../../lib/api';
import { formatDate } from '../../lib/format';
import { useErrorText } from '../../lib/useErrorText';
import { useLocale } from '../../i18n/useLocale';
import { Button, Card, Spinner, useToast } from '../../ui';

const PASSKEYS_KEY = ['/api/user/passkeys'] as const;

/** The account's passkeys on /profile: another way in that counts as both factors. */
export function PasskeySettings() {
  const { t } = useTranslation();
  const { locale } = useLocale();
  const { toast } = useToast();
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const passkeys = useQuery<PasskeysResponse | null>({ queryKey: PASSKEYS_KEY, queryFn: getQueryFn({ on401: 'throw' }) });
  const list = passkeys.data?.passkeys ?? [];
  const failed = (error: Error) => toast({ title: t('profile.passkeys.failed'), description: errorText(error), variant: 'destructive' });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: PASSKEYS_KEY });

  const add = useMutation<Passkey, Error>({
    mutationFn: async () => {
      // Loaded on demand, with the ceremony: the profile page does not need it otherwise.
      const { startRegistration } = await import('@simplewebauthn/browser');
      const optionsJSON = await apiJson<Parameters<typeof startRegistration>[0]['optionsJSON']>('POST', '/api/user/passkeys/options');
      const response = await startRegistration({ optionsJSON });
      return apiJson<Passkey>('POST', '/api/user/passkeys', { response, name: t('profile.passkeys.defaultName', { n: list.length + 1 }) });
    },
    onSuccess: () => {
      toast({ title: t('profile.passkeys.added'), variant: 'success' });
      refresh();
    },
    onError: failed,
  });
  const remove = useMutation<unknown, Error, string>({
    mutationFn: (id) => apiJson('DELETE', `/api/user/passkeys/${id}`),
    onSuccess: () => {
      toast({ title: t('profile.passkeys.removed'), variant: 'success' });
      refresh();
    },
    onError: failed,
  });

  const when = (value: string) => formatDate(value, locale, { dateStyle: 'medium' });

  return (
    <Card title={t('profile.passkeys.title')} titleId="passkeys-title">
      <p className="muted">{t('profile.passkeys.text')}</p>
      {passkeys.isPending ? (
        <Spinner label={t('common.loading')} />
      ) : list.length === 0 ? (
        <p className="muted small">{t('profile.passkeys.none')}</p>
      ) : (
        <ul className="session-list" data-testid="passkey-list">
          {list.map((p) => (
            <li key={p.id} className="session-list__item">
              <div>
                <p className="session-list__device">{p.name}</p>
                <p className="muted small">{t('profile.passkeys.addedOn', { date: when(p.createdAt) })}</p>
                <p className="muted small">{p.lastUsedAt ? t('profile.passkeys.lastUsed', { date: when(p.lastUsedAt) }) : t('profile.passkeys.neverUsed')}</p>
              </div>
              <Button
                size="sm"
                variant="secondary"
                aria-label={t('profile.passkeys.removeLabel', { name: p.name })}
                disabled={remove.isPending}
                onClick={() => remove.mutate(p.id)}
              >
                {t('profile.passkeys.remove')}
              </Button>
            </li>
          ))}
        </ul>
      )}
      <Button block busy={add.isPending} busyText={t('profile.passkeys.adding')} onClick={() => add.mutate()}>
        {t('profile.passkeys.add')}
      </Button>
    </Card>
  );
}
