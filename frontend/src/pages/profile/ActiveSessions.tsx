import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ActiveSession, ActiveSessionsResponse, EndedSessionsResponse } from '@esim/contracts';
import { apiJson, getQueryFn } from '../../lib/api';
import { formatDate } from '../../lib/format';
import { useErrorText } from '../../lib/useErrorText';
import { useLocale } from '../../i18n/useLocale';
import { Button, Card, Spinner, useToast } from '../../ui';

const SESSIONS_KEY = ['/api/user/sessions'] as const;
const WHEN: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' };

/** The account's signed-in sessions on /profile, each with a way to end it, and all others at once. */
export function ActiveSessions() {
  const { t } = useTranslation();
  const { locale } = useLocale();
  const { toast } = useToast();
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const sessions = useQuery<ActiveSessionsResponse | null>({ queryKey: SESSIONS_KEY, queryFn: getQueryFn({ on401: 'throw' }) });

  const end = useMutation<EndedSessionsResponse, Error, string | null>({
    mutationFn: (id) => apiJson('DELETE', id ? `/api/user/sessions/${id}` : '/api/user/sessions'),
    onSuccess: (_answer, id) => {
      toast({ title: id ? t('profile.sessions.ended') : t('profile.sessions.endedOthers'), variant: 'success' });
      void queryClient.invalidateQueries({ queryKey: SESSIONS_KEY });
    },
    onError: (error) => toast({ title: t('profile.sessions.failed'), description: errorText(error), variant: 'destructive' }),
  });

  const describe = (s: ActiveSession) => [s.browser, s.os].filter(Boolean).join(' · ') || t('profile.sessions.unknownDevice');
  const list = sessions.data?.sessions ?? [];
  const others = list.filter((s) => !s.current);

  return (
    <Card title={t('profile.sessions.title')} titleId="sessions-title">
      {sessions.isPending ? (
        <Spinner label={t('profile.sessions.loading')} />
      ) : (
        <ul className="session-list" data-testid="session-list">
          {list.map((s) => (
            <li key={s.id} className="session-list__item">
              <div>
                <p className="session-list__device">
                  {describe(s)}
                  {s.device ? ` · ${s.device}` : ''}
                  {s.current && <span className="badge badge--success session-list__current">{t('profile.sessions.current')}</span>}
                </p>
                <p className="muted small">{t('profile.sessions.signedIn', { date: formatDate(s.signedInAt, locale, WHEN) })}</p>
                <p className="muted small">{t('profile.sessions.lastSeen', { date: formatDate(s.lastSeenAt, locale, WHEN) })}</p>
              </div>
              {!s.current && (
                <Button
                  size="sm"
                  variant="secondary"
                  aria-label={t('profile.sessions.endLabel', { device: describe(s) })}
                  disabled={end.isPending}
                  onClick={() => end.mutate(s.id)}
                >
                  {t('profile.sessions.end')}
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      {others.length > 0 ? (
        <Button variant="danger" block busy={end.isPending && end.variables === null} busyText={t('common.saving')} onClick={() => end.mutate(null)}>
          {t('profile.sessions.endOthers')}
        </Button>
      ) : (
        !sessions.isPending && <p className="muted small">{t('profile.sessions.none')}</p>
      )}
    </Card>
  );
}
