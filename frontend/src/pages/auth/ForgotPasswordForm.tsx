import { useRef, useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../i18n';
import { apiJson } from '../../lib/api';
import { useErrorText } from '../../lib/useErrorText';
import { Button, CheckIcon, LockIcon } from '../../ui';
import { AuthHeading } from './AuthLayout';
import { isValidEmail } from './validation';
import { EmailField } from './EmailField';

interface ForgotPasswordFormProps {
  initialEmail: string;
  onBack: () => void;
}

/** Forgot-password form, then the "link sent" confirmation (same answer for any email). */
export function ForgotPasswordForm({ initialEmail, onBack }: ForgotPasswordFormProps) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [email, setEmail] = useState(initialEmail);
  const [fieldError, setFieldError] = useState<string>();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const emailRef = useRef<HTMLInputElement>(null);
  const mutation = useMutation<unknown, Error, string>({
    mutationFn: (value) => apiJson('POST', '/api/forgot-password', { email: value, locale: currentLocale() }),
    onSuccess: (_data, value) => setSentTo(value),
  });

  if (sentTo) {
    return (
      <>
        <AuthHeading icon={<CheckIcon size={28} />} title={t('auth.forgotSent.title')} subtitle={t('auth.forgotSent.text', { email: sentTo })} />
        <p className="muted small text-center">{t('auth.forgotSent.hint')}</p>
        <Button size="lg" block onClick={onBack}>
          {t('auth.forgot.back')}
        </Button>
      </>
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!isValidEmail(email)) {
      setFieldError(t('auth.validation.emailInvalid'));
      emailRef.current?.focus();
      return;
    }
    setFieldError(undefined);
    mutation.mutate(email.trim());
  };

  return (
    <>
      <AuthHeading icon={<LockIcon size={28} />} title={t('auth.forgot.title')} subtitle={t('auth.forgot.subtitle')} />
      <form className="form" method="post" onSubmit={submit} noValidate>
        <EmailField
          ref={emailRef}
                    value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={fieldError}
        />
        {mutation.isError && (
          <p className="form-error" role="alert">
            {errorText(mutation.error, t('auth.forgot.failed'))}
          </p>
        )}
        <Button type="submit" size="lg" block busy={mutation.isPending} busyText={t('auth.forgot.submitting')}>
          {t('auth.forgot.submit')}
        </Button>
      </form>
      <p className="auth-switch">
        <button type="button" className="link-button" onClick={onBack}>
          {t('auth.forgot.back')}
        </button>
      </p>
    </>
  );
}
