import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../auth/AuthProvider';
import { currentLocale } from '../../i18n';
import { referralCode } from '../../lib/deviceId';
import { Button, Input, MailIcon } from '../../ui';
import { AuthHeading } from './AuthLayout';
import type { SignupValues } from './SignupForm';

interface VerifyEmailFormProps {
  email: string;
  signup: SignupValues;
  onBack: () => void;
}

export function VerifyEmailForm({ email, signup, onBack }: VerifyEmailFormProps) {
  const { t } = useTranslation();
  const { verifyMutation, resendMutation } = useAuth();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const codeRef = useRef<HTMLInputElement>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!/^\d{6}$/.test(code)) {
      setError(t('auth.validation.codeLength'));
      codeRef.current?.focus();
      return;
    }
    setError(undefined);
    verifyMutation.mutate({ email, code, password: signup.password, name: signup.name.trim(), locale: currentLocale(), referralCode: referralCode() });
  };

  return (
    <>
      <AuthHeading icon={<MailIcon size={28} />} title={t('auth.verify.title')} subtitle={t('auth.verify.subtitle', { email })} />
      <form className="form" method="post" onSubmit={submit} noValidate>
        <Input
          ref={codeRef}
          className="code-input"
          label={t('auth.verify.codeLabel')}
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]*"
          maxLength={6}
          required
          value={code}
          onChange={(e) => setCode(e.target.value.replace(/\D/g, '').slice(0, 6))}
          hint={t('auth.verify.codeHint')}
          error={error}
        />
        <Button type="submit" size="lg" block busy={verifyMutation.isPending} busyText={t('auth.verify.submitting')}>
          {t('auth.verify.submit')}
        </Button>
        <Button
          variant="secondary"
          block
          busy={resendMutation.isPending}
          busyText={t('auth.verify.resending')}
          onClick={() => resendMutation.mutate({ email, locale: currentLocale() })}
        >
          {t('auth.verify.resend')}
        </Button>
      </form>
      <p className="auth-switch">
        <button type="button" className="link-button" onClick={onBack}>
          {t('auth.verify.back')}
        </button>
      </p>
    </>
  );
}
