import { useRef, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { DeadLetter, DeadLetterActionResponse } from '@esim/contracts';
import { apiJson } from '../../lib/api';
import { formatDate, formatNumber } from '../../lib/format';
import { useErrorText } from '../../lib/useErrorText';
import { Button, Card, Dialog, Spinner, useToast } from '../../ui';
import { ADMIN_KEYS, fetchDeadLetters } from './adminApi';

type Action = { kind: 'replay' | 'discard'; service: string; messageId: string } | { kind: 'replayAll'; service: string };

/**
 * Dead letters (docs/admin.md): per service, the events its consumer gave up on, with the last
 * error and a payload summary (personal values redacted). Fix the cause, then replay: the
 * consumer's inbox applies an event once however often it comes back.
 */
export function DeadLetters() {
  const { t, i18n } = useTranslation();
  const { toast } = useToast();
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const letters = useQuery({ queryKey: ADMIN_KEYS.deadLetters, queryFn: fetchDeadLetters });
  const [discarding, setDiscarding] = useState<{ service: string; messageId: string } | null>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);

  const act = useMutation<DeadLetterActionResponse, Error, Action>({
    mutationFn: (a) =>
      a.kind === 'replayAll'
        ? apiJson('POST', `/api/admin/dead-letters/${a.service}/replay`)
        : a.kind === 'replay'
          ? apiJson('POST', `/api/admin/dead-letters/${a.service}/${encodeURIComponent(a.messageId)}/replay`)
          : apiJson('DELETE', `/api/admin/dead-letters/${a.service}/${encodeURIComponent(a.messageId)}`),
    onSuccess: (r) => {
      toast(
        r.discarded > 0
          ? { title: t('admin.deadLetters.discarded'), variant: 'success' }
          : { title: t('admin.deadLetters.replayed'), description: t('admin.deadLetters.replayedText', { n: r.replayed, service: r.service }), variant: 'success' },
      );
      setDiscarding(null);
    },
    onError: (error) => toast({ title: t('admin.deadLetters.failed'), description: errorText(error), variant: 'destructive' }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: ADMIN_KEYS.deadLetters });
      void queryClient.invalidateQueries({ queryKey: ADMIN_KEYS.audit });
    },
  });

  const queues = (letters.data?.queues ?? []).filter((q) => q.count > 0);
  const date = (iso: string | null) => (iso ? formatDate(iso, i18n.language, { dateStyle: 'medium', timeStyle: 'medium' }) : '');

  return (
    <Card title={t('admin.deadLetters.title')} titleId="admin-dlq-title">
      <p className="muted small">{t('admin.deadLetters.text')}</p>
      {letters.isError && (
        <p role="alert" className="admin__error">
          {t('admin.loadFailed')}
        </p>
      )}
      {letters.isPending && <Spinner label={t('common.loading')} />}
      {letters.isSuccess && queues.length === 0 && <p className="admin__empty">{t('admin.deadLetters.empty')}</p>}
      {queues.map((q) => (
        <section key={q.service} className="admin__dlq" aria-labelledby={`dlq-${q.service}`}>
          <header className="admin__item-header">
            <h3 id={`dlq-${q.service}`} className="admin__item-title">
              {t('admin.deadLetters.queue', { service: q.service, n: formatNumber(q.count, i18n.language) })}
            </h3>
            <Button variant="secondary" size="sm" busy={act.isPending && act.variables?.kind === 'replayAll' && act.variables.service === q.service} onClick={() => act.mutate({ kind: 'replayAll', service: q.service })}>
              {t('admin.deadLetters.replayAll')}
            </Button>
          </header>
          <ul className="admin__items">
            {q.messages.map((m: DeadLetter) => (
              <li key={m.messageId} className="admin__item" data-testid="dead-letter" data-message-id={m.messageId}>
                <p className="admin__item-title">
                  <code>{m.type ?? t('admin.deadLetters.unknownType')}</code>
                </p>
                <dl className="admin__facts">
                  <div>
                    <dt>{t('admin.deadLetters.reason')}</dt>
                    <dd>
                      <code>{m.reason}</code>
                    </dd>
                  </div>
                  <div>
                    <dt>{t('admin.deadLetters.deliveries')}</dt>
                    <dd>{m.deliveries ?? '?'}</dd>
                  </div>
                  <div>
                    <dt>{t('admin.deadLetters.at')}</dt>
                    <dd>{date(m.deadLetteredAt)}</dd>
                  </div>
                  {m.error && (
                    <div className="admin__facts-wide">
                      <dt>{t('admin.deadLetters.error')}</dt>
                      <dd>
                        <code className="admin__wrap">{m.error}</code>
                      </dd>
                    </div>
                  )}
                  <div className="admin__facts-wide">
                    <dt>{t('admin.deadLetters.payload')}</dt>
                    <dd>
                      <code className="admin__wrap">{Object.entries(m.payloadSummary).map(([k, v]) => `${k}: ${v}`).join(' · ')}</code>
                    </dd>
                  </div>
                </dl>
                <div className="admin__actions">
                  <Button variant="secondary" size="sm" busy={act.isPending && act.variables?.kind === 'replay' && act.variables.messageId === m.messageId} onClick={() => act.mutate({ kind: 'replay', service: q.service, messageId: m.messageId })}>
                    {t('admin.deadLetters.replay')}
                  </Button>
                  <Button variant="danger" size="sm" onClick={() => setDiscarding({ service: q.service, messageId: m.messageId })}>
                    {t('admin.deadLetters.discard')}
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        </section>
      ))}
      <Dialog
        open={discarding !== null}
        onClose={() => setDiscarding(null)}
        role="alertdialog"
        title={t('admin.deadLetters.discardTitle')}
        description={t('admin.deadLetters.discardText')}
        closeLabel={t('common.close')}
        initialFocusRef={cancelRef}
        preventClose={act.isPending}
        footer={
          <>
            <Button ref={cancelRef} variant="secondary" onClick={() => setDiscarding(null)} disabled={act.isPending}>
              {t('common.cancel')}
            </Button>
            <Button variant="danger" busy={act.isPending} onClick={() => discarding && act.mutate({ kind: 'discard', ...discarding })}>
              {t('admin.deadLetters.discard')}
            </Button>
          </>
        }
      />
    </Card>
  );
}
