import { useRef, useState, type FormEvent } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { SIGNUP_BONUS_POINTS, type RegisterResponse } from '@esim/contracts';
import { useAuth } from '../../auth/AuthProvider';
import { currentLocale } from '../../i18n';
import { formatNumber } from '../../lib/format';
import { Button, Checkbox, Input } from '../../ui';
import { AuthHeading } from './AuthLayout';
import { PASSWORD_MIN_LENGTH, isValidEmail, isValidPassword } from './validation';
import { EmailField } from './EmailField';

export interface SignupValues {
  name: string;
  email: string;
  password: string;
  acceptTerms: boolean;
  acceptPrivacy: boolean;
}

type SignupErrors = Partial<Record<keyof SignupValues, string>>;

interface SignupFormProps {
  values: SignupValues;
  onChange: (values: SignupValues) => void;
  onRegistered: (result: RegisterResponse) => void;
  onLogin: () => void;
}

export function SignupForm({ values, onChange, onRegistered, onLogin }: SignupFormProps) {
  const { t, i18n } = useTranslation();
  const { registerMutation } = useAuth();
  const [errors, setErrors] = useState<SignupErrors>({});
  const formRef = useRef<HTMLFormElement>(null);
  const set = <K extends keyof SignupValues>(key: K, value: SignupValues[K]) => onChange({ ...values, [key]: value });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next: SignupErrors = {};
    if (!values.name.trim()) next.name = t('auth.validation.nameRequired');
    if (!values.email.trim()) next.email = t('auth.validation.emailRequired');
    else if (!isValidEmail(values.email)) next.email = t('auth.validation.emailInvalid');
    if (!values.password) next.password = t('auth.validation.passwordRequired');
    else if (!isValidPassword(values.password)) next.password = t('auth.validation.passwordMin', { min: PASSWORD_MIN_LENGTH });
    if (!values.acceptTerms) next.acceptTerms = t('auth.validation.acceptTerms');
    if (!values.acceptPrivacy) next.acceptPrivacy = t('auth.validation.acceptPrivacy');
    setErrors(next);
    const firstInvalid = (['name', 'email', 'password', 'acceptTerms', 'acceptPrivacy'] as const).find((key) => next[key]);
    if (firstInvalid) {
      formRef.current?.querySelector<HTMLElement>(`[name="${firstInvalid}"]`)?.focus();
      return;
    }
    registerMutation.mutate(
      {
        name: values.name.trim(),
        email: values.email.trim(),
        password: values.password,
        // Both boxes are ticked (checked above); the contract takes only true.
        acceptTerms: true,
        acceptPrivacy: true,
        locale: currentLocale(),
      },
      { onSuccess: onRegistered },
    );
  };

  return (
    <>
      <AuthHeading title={t('auth.signup.title')} subtitle={t('auth.signup.subtitle', { mb: formatNumber(SIGNUP_BONUS_POINTS, i18n.language) })} />
      <form ref={formRef} className="form" method="post" onSubmit={submit} noValidate>
        <Input
          label={t('auth.fields.username')}
          name="name"
          autoComplete="nickname"
          required
          maxLength={80}
          value={values.name}
          onChange={(e) => set('name', e.target.value)}
          error={errors.name}
        />
        <EmailField
                    value={values.email}
          onChange={(e) => set('email', e.target.value)}
          error={errors.email}
        />
        <Input
          label={t('auth.fields.password')}
          type="password"
          name="password"
          autoComplete="new-password"
          required
          minLength={PASSWORD_MIN_LENGTH}
          maxLength={128}
          hint={t('auth.passwordHint', { min: PASSWORD_MIN_LENGTH })}
          value={values.password}
          onChange={(e) => set('password', e.target.value)}
          error={errors.password}
        />
        <div className="stack stack--sm">
          <Checkbox
            name="acceptTerms"
            checked={values.acceptTerms}
            onChange={(e) => set('acceptTerms', e.target.checked)}
            error={errors.acceptTerms}
            label={
              <Trans
                i18nKey="auth.signup.acceptTerms"
                components={{
                  legal: (
                    <Link to="/terms" target="_blank" rel="noopener noreferrer">
                      {' '}
                    </Link>
                  ),
                }}
              />
            }
          />
          <Checkbox
            name="acceptPrivacy"
            checked={values.acceptPrivacy}
            onChange={(e) => set('acceptPrivacy', e.target.checked)}
            error={errors.acceptPrivacy}
            label={
              <Trans
                i18nKey="auth.signup.acceptPrivacy"
                components={{
                  legal: (
                    <Link to="/privacy" target="_blank" rel="noopener noreferrer">
                      {' '}
                    </Link>
                  ),
                }}
              />
            }
          />
        </div>
        <Button type="submit" size="lg" block busy={registerMutation.isPending} busyText={t('auth.signup.submitting')}>
          {t('auth.signup.submit')}
        </Button>
      </form>
      <p className="auth-switch">
        {t('auth.signup.haveAccount')}{' '}
        <button type="button" className="link-button" onClick={onLogin}>
          {t('auth.signup.toLogin')}
        </button>
      </p>
    </>
  );
}
