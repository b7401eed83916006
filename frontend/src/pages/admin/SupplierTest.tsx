import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { KeepgoTestResponse } from '@esim/contracts';
import { formatNumber } from '../../lib/format';
import { Button, Card, SignalIcon, useToast } from '../../ui';
import { fetchKeepgoTest } from './adminApi';

/**
 * The supplier connection test (spec sections 6 and 8): 'KeepGo API Connected' with the number of
 * lines; the supplier's failure message (or 'API connection failed'); and, when our own endpoint
 * cannot be reached, 'API Test Failed - Could not connect to test endpoint'.
 */
export function SupplierTest() {
  const { t, i18n } = useTranslation();
  const { toast } = useToast();
  const test = useMutation<KeepgoTestResponse, Error>({
    mutationFn: fetchKeepgoTest,
    onSuccess: (r) => {
      if (r.success && r.apiStatus.lines === 'connected') {
        toast({
          title: t('admin.supplier.connected'),
          description: t('admin.supplier.connectedText', { lines: formatNumber(r.lines.data.sim_cards.total ?? 0, i18n.language) }),
          variant: 'success',
        });
      } else {
        toast({ title: t('admin.supplier.failed'), description: r.message || t('admin.supplier.failed'), variant: 'destructive' });
      }
    },
    onError: () => toast({ title: t('admin.supplier.unreachable'), description: t('admin.supplier.unreachableText'), variant: 'destructive' }),
  });
  return (
    <Card title={t('admin.supplier.title')} titleId="admin-supplier-title">
      <p className="muted small">{t('admin.supplier.text')}</p>
      {test.data && (
        <p className="small" data-testid="supplier-status">
          {test.data.success ? t('admin.supplier.statusConnected', { mode: test.data.mode === 'sandbox' ? t('admin.supplier.sandbox') : t('admin.supplier.live') }) : t('admin.supplier.statusFailed')}
        </p>
      )}
      <div>
        <Button variant="secondary" icon={<SignalIcon size={18} />} busy={test.isPending} busyText={t('admin.supplier.testing')} onClick={() => test.mutate()}>
          {t('admin.supplier.test')}
        </Button>
      </div>
    </Card>
  );
}
