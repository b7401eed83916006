import { useRef, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { type OperatorAction, type OperatorQueueResponse, type OperatorResolution } from '@esim/contracts';
import { apiJson } from '../../lib/api';
import { countryName, formatDate, formatNumber, formatPrice } from '../../lib/format';
import { useErrorText } from '../../lib/useErrorText';
import { Button, Card, Dialog, Input, Spinner, useToast } from '../../ui';
import { ADMIN_KEYS, fetchQueue } from './adminApi';

type Item = OperatorQueueResponse['items'][number];

interface Pending {
  item: Item;
  action: Exclude<OperatorAction, 'retry'>;
}

/**
 * The operator queue (docs/admin.md): redemptions, gift claims and card purchases waiting for a
 * person, each with its history, and retry / deliver by hand / refund. The server resolves each
 * item once: an admin who clicks after another sees the item already resolved.
 */
export function OperatorQueue() {
  const { t, i18n } = useTranslation();
  const { toast } = useToast();
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const queue = useQuery({ queryKey: ADMIN_KEYS.queue, queryFn: fetchQueue });
  const [pending, setPending] = useState<Pending | null>(null);
  const [iccid, setIccid] = useState('');
  const [lpa, setLpa] = useState('');
  const cancelRef = useRef<HTMLButtonElement>(null);

  const resolve = useMutation<OperatorResolution, Error, { item: Item; action: OperatorAction; body?: unknown }>({
    mutationFn: ({ item, action, body }) => apiJson<OperatorResolution>('POST', `/api/admin/operator-queue/${item.kind}/${item.id}/${action}`, body),
    onSuccess: (r) => {
      toast({ title: t('admin.queue.resolved'), description: t(`admin.queue.resolvedText.${r.action}`), variant: 'success' });
      setPending(null);
    },
    onError: (error) => toast({ title: t('admin.queue.failed'), description: errorText(error), variant: 'destructive' }),
    onSettled: () => {
      for (const key of [ADMIN_KEYS.queue, ADMIN_KEYS.stats, ADMIN_KEYS.users, ADMIN_KEYS.audit]) void queryClient.invalidateQueries({ queryKey: key });
    },
  });

  const open = (item: Item, action: Pending['action']) => {
    setIccid(item.targetIccid ?? '');
    setLpa('');
    setPending({ item, action });
  };
  const submitDelivery = (event: FormEvent) => {
    event.preventDefault();
    if (pending) resolve.mutate({ item: pending.item, action: 'deliver', body: { iccid: iccid.trim(), lpaCode: lpa.trim() } });
  };
  const date = (iso: string) => formatDate(iso, i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  const items = queue.data?.items ?? [];

  return (
    <Card title={t('admin.queue.title')} titleId="admin-queue-title" action={<span className="badge">{formatNumber(items.length, i18n.language)}</span>}>
      <p className="muted small">{t('admin.queue.text')}</p>
      {queue.isError && (
        <p role="alert" className="admin__error">
          {t('admin.loadFailed')}
        </p>
      )}
      {queue.data && queue.data.unavailable.length > 0 && (
        <p role="status" className="admin__warning">
          {t('admin.queue.unavailable', { services: queue.data.unavailable.join(', ') })}
        </p>
      )}
      {queue.isPending && <Spinner label={t('common.loading')} />}
      {queue.isSuccess && items.length === 0 && <p className="admin__empty">{t('admin.queue.empty')}</p>}
      <ul className="admin__items">
        {items.map((item) => {
          const titleId = `queue-${item.kind}-${item.id}`;
          return (
            <li key={`${item.kind}:${item.id}`}>
              <article className="admin__item" aria-labelledby={titleId} data-testid="queue-item" data-item-id={item.id}>
                <header className="admin__item-header">
                  <h3 id={titleId} className="admin__item-title">
                    {t(`admin.queue.kind.${item.kind}`)} · {t('common.gbValue', { value: item.amountGB })}
                  </h3>
                  <span className="badge badge--warning">{t(`admin.queue.reason.${item.reason}`)}</span>
                </header>
                <dl className="admin__facts">
                  <div>
                    <dt>{t('admin.queue.user')}</dt>
                    <dd>{item.user ? `${item.user.name} (${item.user.email})` : t('admin.queue.deletedUser')}</dd>
                  </div>
                  <div>
                    <dt>{t('admin.queue.target')}</dt>
                    <dd>{item.purchaseType === 'topup' ? t('admin.queue.topup', { iccid: item.targetIccid }) : t('admin.queue.newEsim', { country: item.country ? countryName(item.country, i18n.language) : '' })}</dd>
                  </div>
                  <div>
                    <dt>{t('admin.queue.paid')}</dt>
                    <dd>{item.priceCents !== null ? formatPrice(item.priceCents, item.currency ?? 'USD', i18n.language) : item.points > 0 ? t('admin.queue.points', { points: formatNumber(item.points, i18n.language) }) : t('admin.queue.gift')}</dd>
                  </div>
                  <div>
                    <dt>{t('admin.queue.waitingSince')}</dt>
                    <dd>{date(item.waitingSince)}</dd>
                  </div>
                  {item.failure && (
                    <div className="admin__facts-wide">
                      <dt>{t('admin.queue.failure')}</dt>
                      <dd>
                        <code>{item.failure.reason}</code> {item.failure.message}
                      </dd>
                    </div>
                  )}
                </dl>
                {item.note && <p className="small muted">{item.note}</p>}
                <details className="admin__history">
                  <summary>{t('admin.queue.history')}</summary>
                  <ol>
                    {item.history.map((h, i) => (
                      <li key={i}>
                        <time dateTime={h.at}>{date(h.at)}</time> <code>{h.event}</code>
                        {h.detail ? ` ${h.detail}` : ''}
                      </li>
                    ))}
                  </ol>
                </details>
                {item.actions.length > 0 && (
                  <div className="admin__actions">
                    {item.actions.includes('retry') && (
                      <Button variant="secondary" size="sm" busy={resolve.isPending && resolve.variables?.item.id === item.id && resolve.variables.action === 'retry'} onClick={() => resolve.mutate({ item, action: 'retry' })}>
                        {t('admin.queue.retry')}
                      </Button>
                    )}
                    {item.actions.includes('deliver') && (
                      <Button variant="secondary" size="sm" onClick={() => open(item, 'deliver')}>
                        {t('admin.queue.deliver')}
                      </Button>
                    )}
                    {item.actions.includes('refund') && (
                      <Button variant="danger" size="sm" onClick={() => open(item, 'refund')}>
                        {t('admin.queue.refund')}
                      </Button>
                    )}
                  </div>
                )}
              </article>
            </li>
          );
        })}
      </ul>

      <Dialog
        open={pending?.action === 'deliver'}
        onClose={() => setPending(null)}
        title={t('admin.queue.deliverTitle')}
        description={t('admin.queue.deliverText')}
        closeLabel={t('common.close')}
        preventClose={resolve.isPending}
        footer={
          <>
            <Button variant="secondary" onClick={() => setPending(null)} disabled={resolve.isPending}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" form="admin-deliver-form" busy={resolve.isPending}>
              {t('admin.queue.confirmDeliver')}
            </Button>
          </>
        }
      >
        <form id="admin-deliver-form" className="stack" onSubmit={submitDelivery} noValidate>
          <Input label={t('admin.queue.iccid')} value={iccid} onChange={(e) => setIccid(e.target.value)} inputMode="numeric" autoComplete="off" dir="ltr" required />
          <Input label={t('admin.queue.lpa')} value={lpa} onChange={(e) => setLpa(e.target.value)} placeholder="LPA:1$smdp.example.com$MATCHING-ID" autoComplete="off" dir="ltr" required />
        </form>
      </Dialog>

      <Dialog
        open={pending?.action === 'refund'}
        onClose={() => setPending(null)}
        role="alertdialog"
        title={t('admin.queue.refundTitle')}
        description={
          pending?.item.kind === 'purchase'
            ? t('admin.queue.refundCard', { amount: formatPrice(pending.item.priceCents ?? 0, pending.item.currency ?? 'USD', i18n.language) })
            : pending?.item.kind === 'gift-claim'
              ? t('admin.queue.refundGift')
              : t('admin.queue.refundPoints', { points: formatNumber(pending?.item.points ?? 0, i18n.language) })
        }
        closeLabel={t('common.close')}
        initialFocusRef={cancelRef}
        preventClose={resolve.isPending}
        footer={
          <>
            <Button ref={cancelRef} variant="secondary" onClick={() => setPending(null)} disabled={resolve.isPending}>
              {t('common.cancel')}
            </Button>
            <Button variant="danger" busy={resolve.isPending} onClick={() => pending && resolve.mutate({ item: pending.item, action: 'refund' })}>
              {t('admin.queue.confirmRefund')}
            </Button>
          </>
        }
      />
    </Card>
  );
}
