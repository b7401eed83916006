import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { PaymentConfig, PurchaseRefund } from '@esim/contracts';
import { apiJson } from '../../lib/api';
import { formatDate, formatPrice } from '../../lib/format';
import { useErrorText } from '../../lib/useErrorText';
import { Button, useToast } from '../../ui';
import { LINES_QUERY_KEY, PURCHASES_QUERY_KEY, type WalletEntry } from './wallet';

/**
 * A bought eSIM's refund (docs/payments.md, "Refunds"). The server says with each purchase whether
 * a refund is offered, from the provider's latest report of the line (read again when My eSIMs
 * opens): if so, "Request a refund", which checks again and refunds once, however often it is
 * pressed, here or on another device; if not, why not and how to reach support; once refunded, when.
 */
export function RefundPanel({ entry }: { entry: WalletEntry }) {
  const { t, i18n } = useTranslation();
  const { toast } = useToast();
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const [refused, setRefused] = useState<string | null>(null);
  const refund = entry.refund;
  const offersHelp = refund !== null && !refund.eligible && refund.reason !== 'not_activated' && refund.reason !== 'already_refunded';
  const config = useQuery<PaymentConfig>({ queryKey: ['/api/payment-config'], staleTime: Infinity, enabled: offersHelp || refused !== null });
  const date = (iso: string) => formatDate(iso, i18n.language, { dateStyle: 'medium' });
  const request = useMutation({
    mutationFn: () => apiJson<PurchaseRefund>('POST', `/api/esim-purchases/${encodeURIComponent(entry.purchaseId ?? '')}/refund`, {}),
    onSuccess: (done) => {
      setRefused(null);
      toast({ title: t('refunds.success', { amount: formatPrice(done.amount, done.currency, i18n.language) }), variant: 'success' });
      // The purchase is refunded and its line cancelled: both reads change.
      void queryClient.invalidateQueries({ queryKey: PURCHASES_QUERY_KEY });
      void queryClient.invalidateQueries({ queryKey: LINES_QUERY_KEY });
    },
    onError: (err) => setRefused(errorText(err)),
  });
  if (!entry.purchaseId || !refund) return null;

  const email = config.data?.supportEmail;
  const subject = t('refunds.supportSubject', { reference: entry.purchaseId });
  const support = (
    <p className="muted small" data-testid="refund-support">
      {t('refunds.support', { reference: entry.purchaseId })}{' '}
      {email && (
        <a href={`mailto:${email}?subject=${encodeURIComponent(subject)}`} dir="ltr">
          {email}
        </a>
      )}
    </p>
  );

  if (entry.refundedAt || entry.status === 'refunded' || refund.reason === 'already_refunded' || refund.reason === 'refund_pending') {
    return (
      <p className="muted small" data-testid="refund-state">
        {entry.refundedAt ? t('refunds.done', { date: date(entry.refundedAt) }) : t('refunds.pending')}
      </p>
    );
  }
  // Not delivered: the card says where the purchase stands (and support's reference when it waits for an operator).
  if (refund.reason === 'not_activated') return null;
  if (!refund.eligible) {
    return (
      <div className="stack stack--sm" data-testid="refund-state" data-reason={refund.reason ?? undefined}>
        <p className="muted small" data-testid="refund-why">
          {refund.reason === 'window_passed' && refund.until ? t('refunds.closed', { date: date(refund.until) }) : t(`refunds.why.${refund.reason ?? 'not_activated'}`)}
        </p>
        {support}
      </div>
    );
  }
  return (
    <div className="stack stack--sm" data-testid="refund-state" data-reason="eligible">
      {refund.until && <p className="muted small">{t('refunds.until', { date: date(refund.until) })}</p>}
      {refused ? (
        <>
          <p className="form-error" role="alert" data-testid="refund-refused">
            {refused}
          </p>
          {support}
        </>
      ) : (
        <Button variant="ghost" block busy={request.isPending} busyText={t('refunds.requesting')} onClick={() => request.mutate()} data-testid="refund-request">
          {t('refunds.request')}
        </Button>
      )}
    </div>
  );
}
