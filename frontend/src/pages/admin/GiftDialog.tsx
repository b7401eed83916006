import { useEffect, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { REDEEMABLE_PLANS, type AdminGiftResponse, type RedeemablePlanTier } from '@esim/contracts';
import { apiJson } from '../../lib/api';
import { Button, Dialog, Input, Select, useToast } from '../../ui';
import { ADMIN_KEYS, fetchUsersPage } from './adminApi';
import { useDebounced } from './useDebounced';

export interface GiftTarget {
  id: string;
  name: string;
  email: string;
}

/**
 * The gift dialog (spec section 6): a user and a 1GB, 3GB or 5GB tier. Users are found by the
 * server's search (never loaded all at once); a row's "Gift data" opens it with that user chosen.
 */
export function GiftDialog({ open, initialUser, onClose }: { open: boolean; initialUser: GiftTarget | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { toast } = useToast();
  const queryClient = useQueryClient();
  const [q, setQ] = useState('');
  const [userId, setUserId] = useState('');
  const [tier, setTier] = useState<RedeemablePlanTier | ''>('');
  const search = useDebounced(q.trim(), 300);

  useEffect(() => {
    if (!open) return;
    setQ('');
    setUserId(initialUser?.id ?? '');
    setTier('');
  }, [open, initialUser]);

  const matches = useQuery({
    queryKey: ['admin-gift-search', search],
    queryFn: ({ signal }) => fetchUsersPage({ q: search, sort: 'name', order: 'asc', cursor: null }, signal),
    enabled: open && search.length > 0,
  });
  const found = matches.data?.rows ?? [];
  const candidates = [...(initialUser ? [initialUser] : []), ...found.filter((u) => u.id !== initialUser?.id)];

  const gift = useMutation<AdminGiftResponse, Error, { userId: string; planTier: RedeemablePlanTier }>({
    mutationFn: ({ userId: id, planTier }) => apiJson<AdminGiftResponse>('POST', `/api/admin/gift-data/${id}`, { planTier, iccid: 'admin-gifted' }),
    onSuccess: (g) => {
      const who = candidates.find((u) => u.id === g.userId);
      toast({ title: t('admin.gift.success'), description: t('admin.gift.successText', { amount: g.amountGB, name: who?.name ?? '' }), variant: 'success' });
      void queryClient.invalidateQueries({ queryKey: ADMIN_KEYS.users });
      void queryClient.invalidateQueries({ queryKey: ADMIN_KEYS.stats });
      void queryClient.invalidateQueries({ queryKey: ADMIN_KEYS.audit });
      onClose();
    },
    onError: () => toast({ title: t('admin.gift.failedTitle'), description: t('admin.gift.failedText'), variant: 'destructive' }),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!userId || !tier) {
      toast({ title: t('admin.gift.missingTitle'), description: t('admin.gift.missingText'), variant: 'destructive' });
      return;
    }
    gift.mutate({ userId, planTier: tier });
  };

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={t('admin.gift.title')}
      description={t('admin.gift.description')}
      closeLabel={t('common.close')}
      preventClose={gift.isPending}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={gift.isPending}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" form="admin-gift-form" busy={gift.isPending} busyText={t('admin.gift.submitting')}>
            {t('admin.gift.submit')}
          </Button>
        </>
      }
    >
      <form id="admin-gift-form" className="stack" onSubmit={submit} noValidate>
        <Input label={t('admin.gift.searchUser')} type="search" value={q} placeholder={t('admin.gift.searchPlaceholder')} onChange={(e) => setQ(e.target.value)} autoComplete="off" />
        <Select
          label={t('admin.gift.user')}
          value={userId}
          onChange={(e) => setUserId(e.target.value)}
          hint={search && matches.isSuccess && found.length === 0 ? t('admin.gift.noMatch') : undefined}
          options={[{ value: '', label: t('admin.gift.chooseUser') }, ...candidates.map((u) => ({ value: u.id, label: `${u.name} (${u.email})` }))]}
        />
        <Select
          label={t('admin.gift.tier')}
          value={tier}
          onChange={(e) => setTier(e.target.value as RedeemablePlanTier | '')}
          options={[{ value: '', label: t('admin.gift.chooseTier') }, ...REDEEMABLE_PLANS.map((p) => ({ value: p.tier, label: t('common.gbValue', { value: p.amountGB }) }))]}
        />
      </form>
    </Dialog>
  );
}
