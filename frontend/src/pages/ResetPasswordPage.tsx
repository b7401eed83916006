import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { apiJson } from '../lib/api';
import { useDocumentTitle } from '../lib/useDocumentTitle';
import { useErrorText } from '../lib/useErrorText';
import { ButtonLink, Button, CheckIcon, Input, LockIcon, useToast } from '../ui';
import { AuthHeading, AuthLayout } from './auth/AuthLayout';
import { PASSWORD_MIN_LENGTH, isValidPassword } from './auth/validation';

/** /reset-password?token=…: choose a new password, then a success view with 'GO TO LOGIN'. */
export default function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  return token ? <ResetPasswordForm token={token} /> : <InvalidLink />;
}

function InvalidLink() {
  const { t } = useTranslation();
  const { toast } = useToast();
  useEffect(() => {
    toast({ title: t('reset.invalidTitle'), description: t('reset.invalidText'), variant: 'destructive' });
  }, [toast, t]);
  return <Navigate to="/auth" replace />;
}

function ResetPasswordForm({ token }: { token: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const errorText = useErrorText();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<{ password?: string; confirm?: string }>({});
  const passwordRef = useRef<HTMLInputElement>(null);
  const confirmRef = useRef<HTMLInputElement>(null);
  const mutation = useMutation<unknown, Error, string>({
    mutationFn: (newPassword) => apiJson('POST', '/api/reset-password', { token, newPassword }),
  });
  useDocumentTitle(mutation.isSuccess ? t('reset.successTitle') : t('reset.title'));

  if (mutation.isSuccess) {
    return (
      <AuthLayout>
        <AuthHeading icon={<CheckIcon size={28} />} title={t('reset.successTitle')} subtitle={t('reset.successText')} />
        <Button size="lg" block onClick={() => navigate('/auth?login=true')}>
          {t('reset.goToLogin')}
        </Button>
      </AuthLayout>
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next: typeof errors = {};
    if (!isValidPassword(password)) next.password = t('reset.validation.minLength', { min: PASSWORD_MIN_LENGTH });
    if (confirm !== password) next.confirm = t('reset.validation.mismatch');
    setErrors(next);
    if (next.password) return passwordRef.current?.focus();
    if (next.confirm) return confirmRef.current?.focus();
    mutation.mutate(password);
  };

  return (
    <AuthLayout>
      <AuthHeading icon={<LockIcon size={28} />} title={t('reset.title')} subtitle={t('reset.subtitle', { min: PASSWORD_MIN_LENGTH })} />
      <form className="form" onSubmit={submit} noValidate>
        <Input
          ref={passwordRef}
          label={t('reset.newPassword')}
          type="password"
          name="newPassword"
          autoComplete="new-password"
          required
          minLength={PASSWORD_MIN_LENGTH}
          maxLength={128}
          hint={t('auth.passwordHint', { min: PASSWORD_MIN_LENGTH })}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={errors.password}
        />
        <Input
          ref={confirmRef}
          label={t('reset.confirmPassword')}
          type="password"
          name="confirmPassword"
          autoComplete="new-password"
          required
          value={confirm}
          onChange={(e) => setConfirm(e.target.value)}
          error={errors.confirm}
        />
        {mutation.isError && (
          <p className="form-error" role="alert">
            {errorText(mutation.error, t('reset.failed'))}
          </p>
        )}
        <Button type="submit" size="lg" block busy={mutation.isPending} busyText={t('reset.submitting')}>
          {t('reset.submit')}
        </Button>
      </form>
      <p className="auth-switch">
        <ButtonLink to="/auth?login=true" variant="ghost">
          {t('auth.forgot.back')}
        </ButtonLink>
      </p>
    </AuthLayout>
  );
}
