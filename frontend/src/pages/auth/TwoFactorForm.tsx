import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../auth/AuthProvider';
import { Button, Input } from '../../ui';
import { AuthHeading } from './AuthLayout';

/**
 * The second step of a sign-in with two-factor sign-in on: the password was right, and the
 * gateway waits for a 6-digit code from the authenticator app or a recovery code.
 */
export function TwoFactorForm({ onBack }: { onBack: () => void }) {
  const { t } = useTranslation();
  const { twoFactorMutation } = useAuth();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const codeRef = useRef<HTMLInputElement>(null);

  useEffect(() => codeRef.current?.focus(), []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!code.trim()) {
      setError(t('auth.twoFactor.codeRequired'));
      return codeRef.current?.focus();
    }
    setError(undefined);
    twoFactorMutation.mutate({ code: code.trim() });
  };

  return (
    <>
      <AuthHeading title={t('auth.twoFactor.title')} subtitle={t('auth.twoFactor.subtitle')} />
      <form className="form" method="post" onSubmit={submit} noValidate>
        <Input
          ref={codeRef}
          label={t('auth.twoFactor.code')}
          name="code"
          autoComplete="one-time-code"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={32}
          required
          value={code}
          onChange={(e) => setCode(e.target.value)}
          error={error}
        />
        <Button type="submit" size="lg" block busy={twoFactorMutation.isPending} busyText={t('auth.twoFactor.submitting')}>
          {t('auth.twoFactor.submit')}
        </Button>
      </form>
      <p className="auth-switch">
        <button type="button" className="link-button" onClick={onBack}>
          {t('auth.twoFactor.back')}
        </button>
      </p>
    </>
  );
}
