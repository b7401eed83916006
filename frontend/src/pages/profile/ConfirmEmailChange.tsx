import { useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { USER_QUERY_KEY } from '../../auth/AuthProvider';
import { apiJson } from '../../lib/api';
import { useErrorText } from '../../lib/useErrorText';
import { Button, Input, useToast } from '../../ui';

/** A changed email takes effect only after the code sent to the new address is entered here. */
export function ConfirmEmailChange({ email, onDone }: { email: string; onDone: () => void }) {
  const { t } = useTranslation();
  const { toast } = useToast();
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const mutation = useMutation<unknown, Error, string>({
    mutationFn: (value) => apiJson('POST', '/api/user/email/verify', { code: value }),
    onSuccess: () => {
      toast({ title: t('profile.toast.emailUpdated'), variant: 'success' });
      void queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY });
      onDone();
    },
    onError: (err) => toast({ title: t('profile.toast.emailUpdateFailed'), description: errorText(err), variant: 'destructive' }),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!/^\d{6}$/.test(code)) {
      setError(t('auth.validation.codeLength'));
      return;
    }
    setError(undefined);
    mutation.mutate(code);
  };

  return (
    <form className="form email-change" onSubmit={submit} noValidate aria-labelledby="email-change-title">
      <div className="stack stack--sm">
        <h3 id="email-change-title" className="section-title">
          {t('profile.emailChange.title')}
        </h3>
        <p className="muted small">{t('profile.emailChange.text', { email })}</p>
      </div>
      <Input
        className="code-input"
        label={t('auth.verify.codeLabel')}
        name="emailCode"
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="[0-9]*"
        maxLength={6}
        value={code}
        onChange={(e) => setCode(e.target.value.replace(/\D/g, '').slice(0, 6))}
        error={error}
      />
      <div className="button-row">
        <Button type="submit" busy={mutation.isPending} busyText={t('auth.verify.submitting')}>
          {t('profile.emailChange.submit')}
        </Button>
        <Button variant="secondary" onClick={onDone} disabled={mutation.isPending}>
          {t('common.cancel')}
        </Button>
      </div>
    </form>
  );
}
