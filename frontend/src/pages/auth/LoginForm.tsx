import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../auth/AuthProvider';
import { Button, Input } from '../../ui';
import { AuthHeading } from './AuthLayout';
import { isValidEmail } from './validation';
import { EmailField } from './EmailField';
import { TwoFactorForm } from './TwoFactorForm';

interface LoginFormProps {
  onSignup: () => void;
  onForgot: (email: string) => void;
}

export function LoginForm({ onSignup, onForgot }: LoginFormProps) {
  const { t } = useTranslation();
  const { loginMutation, passkeyMutation } = useAuth();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ email?: string; password?: string }>({});
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next: typeof errors = {};
    if (!email.trim()) next.email = t('auth.validation.emailRequired');
    else if (!isValidEmail(email)) next.email = t('auth.validation.emailInvalid');
    if (!password) next.password = t('auth.validation.passwordRequired');
    setErrors(next);
    if (next.email) return emailRef.current?.focus();
    if (next.password) return passwordRef.current?.focus();
    loginMutation.mutate({ username: email.trim(), password });
  };

  // The password was right and the account asks for its second factor.
  if (loginMutation.data && 'twoFactorRequired' in loginMutation.data) {
    return (
      <TwoFactorForm
        onBack={() => {
          loginMutation.reset();
          setPassword('');
        }}
      />
    );
  }

  return (
    <>
      <AuthHeading title={t('auth.login.title')} subtitle={t('auth.login.subtitle')} />
      {/* method="post": a pre-rendered form sent before the app has taken over the page is sent by
          the browser itself, and a GET would put the email and password in the address (history,
          logs); the app's own submit never leaves the page. */}
      <form className="form" method="post" onSubmit={submit} noValidate>
        <EmailField
          ref={emailRef}
                    value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={errors.email}
        />
        <Input
          ref={passwordRef}
          label={t('auth.fields.password')}
          type="password"
          name="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={errors.password}
        />
        <div className="auth-row-end">
          <button type="button" className="link-button" onClick={() => onForgot(email)}>
            {t('auth.login.forgot')}
          </button>
        </div>
        <Button type="submit" size="lg" block busy={loginMutation.isPending} busyText={t('auth.login.submitting')}>
          {t('auth.login.submit')}
        </Button>
      </form>
      <Button
        type="button"
        variant="secondary"
        size="lg"
        block
        className="passkey-sign-in"
        busy={passkeyMutation.isPending}
        busyText={t('auth.passkey.signingIn')}
        onClick={() => passkeyMutation.mutate()}
      >
        {t('auth.passkey.signIn')}
      </Button>
      <p className="auth-switch">
        {t('auth.login.noAccount')}{' '}
        <button type="button" className="link-button" onClick={onSignup}>
          {t('auth.login.toSignup')}
        </button>
      </p>
    </>
  );
}
