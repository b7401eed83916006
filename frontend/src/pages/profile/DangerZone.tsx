import { useRef, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../auth/AuthProvider';
import { apiRequest } from '../../lib/api';
import { useErrorText } from '../../lib/useErrorText';
import { Button, Card, Dialog, TrashIcon, useToast } from '../../ui';

/** Account deletion, behind a confirmation dialog. */
export function DangerZone() {
  const { t } = useTranslation();
  const { toast } = useToast();
  const errorText = useErrorText();
  const { endSession, endingSession } = useAuth();
  const [open, setOpen] = useState(false);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const mutation = useMutation<void, Error, void>({
    mutationFn: async () => {
      await apiRequest('DELETE', '/api/user/account');
    },
    onMutate: () => endingSession('started', '/'),
    onSuccess: () => {
      setOpen(false);
      toast({ title: t('profile.toast.deleted'), description: t('profile.toast.deletedText'), variant: 'success' });
      endSession('/');
    },
    onError: (error) => {
      endingSession('failed');
      toast({ title: t('profile.toast.deleteFailed'), description: errorText(error), variant: 'destructive' });
    },
  });

  return (
    <Card tone="danger" title={t('profile.danger.title')} titleId="danger-title">
      <p className="muted small">{t('profile.danger.text')}</p>
      <Button variant="danger" icon={<TrashIcon size={18} />} onClick={() => setOpen(true)}>
        {t('profile.danger.delete')}
      </Button>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        role="alertdialog"
        title={t('profile.danger.dialogTitle')}
        description={t('profile.danger.confirm')}
        closeLabel={t('common.close')}
        initialFocusRef={cancelRef}
        preventClose={mutation.isPending}
        footer={
          <>
            <Button ref={cancelRef} variant="secondary" onClick={() => setOpen(false)} disabled={mutation.isPending}>
              {t('common.cancel')}
            </Button>
            <Button variant="danger" busy={mutation.isPending} busyText={t('profile.danger.deleting')} onClick={() => mutation.mutate()}>
              {t('profile.danger.confirmButton')}
            </Button>
          </>
        }
      />
    </Card>
  );
}
