import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { PurchaseRefund } from '@esim/contracts';
import { apiJson } from '../../lib/api';
import { formatDate, formatPrice } from '../../lib/format';
import { useErrorText } from '../../lib/useErrorText';
import { Button, useToast } from '../../ui';
import { PURCHASES_QUERY_KEY, type WalletEntry } from './wallet';

/**
 * A bought eSIM's refund (docs/payments.md, "Refunds"): within the window, "Request a refund" —
 * the server asks the provider whether the eSIM was installed or used and refunds once, however
 * often it is pressed, here or on another device; after the window, or when the server says no,
 * why not and how to reach support; once refunded, when.
 */
export function RefundPanel({ entry }: { entry: WalletEntry }) {
  const { t, i18n } = useTranslation();
  const { toast } = useToast();
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const [refused, setRefused] = useState<string | null>(null);
  const date = (iso: string) => formatDate(iso, i18n.language, { dateStyle: 'medium' });
  const request = useMutation({
    mutationFn: () => apiJson<PurchaseRefund>('POST', `/api/esim-purchases/${encodeURIComponent(entry.purchaseId ?? '')}/refund`, {}),
    onSuccess: (refund) => {
      setRefused(null);
      toast({ title: t('refunds.success', { amount: formatPrice(refund.amount, refund.currency, i18n.language) }), variant: 'success' });
      void queryClient.invalidateQueries({ queryKey: PURCHASES_QUERY_KEY });
    },
    onError: (err) => setRefused(errorText(err)),
  });
  if (!entry.purchaseId) return null;
  const support = <p className="muted small">{t('refunds.support', { reference: entry.purchaseId })}</p>;

  if (entry.refundedAt || entry.status === 'refunded') {
    return (
      <p className="muted small" data-testid="refund-state">
        {entry.refundedAt ? t('refunds.done', { date: date(entry.refundedAt) }) : t('refunds.pending')}
      </p>
    );
  }
  if (!entry.refundableUntil) return null;
  if (Date.parse(entry.refundableUntil) <= Date.now()) {
    return (
      <div className="stack stack--sm" data-testid="refund-state">
        <p className="muted small">{t('refunds.closed', { date: date(entry.refundableUntil) })}</p>
        {support}
      </div>
    );
  }
  return (
    <div className="stack stack--sm" data-testid="refund-state">
      <p className="muted small">{t('refunds.until', { date: date(entry.refundableUntil) })}</p>
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
