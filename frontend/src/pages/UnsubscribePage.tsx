import { useMutation } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { apiJson } from '../lib/api';
import { useDocumentTitle } from '../lib/useDocumentTitle';
import { useErrorText } from '../lib/useErrorText';
import { Button, ButtonLink, CheckIcon, MailIcon } from '../ui';
import { AuthHeading, AuthLayout } from './auth/AuthLayout';

/**
 * /unsubscribe?token=…, the unsubscribe link of a promotional email (docs/accounts.md, "What each
 * switch governs"): no sign-in, the signed token is enough. Opening it changes nothing (mail
 * scanners open links); the button does, with the same request a mail client's one-click sends.
 */
export default function UnsubscribePage() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const mutation = useMutation<unknown, Error>({
    mutationFn: () => apiJson('POST', `/api/mail/unsubscribe?token=${encodeURIComponent(token)}`),
  });
  useDocumentTitle(t('unsubscribe.title'));

  if (mutation.isSuccess) {
    return (
      <AuthLayout>
        <AuthHeading icon={<CheckIcon size={28} />} title={t('unsubscribe.title')} subtitle={t('unsubscribe.done')} />
        <ButtonLink to="/profile" variant="ghost">
          {t('unsubscribe.profile')}
        </ButtonLink>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout>
      <AuthHeading icon={<MailIcon size={28} />} title={t('unsubscribe.title')} subtitle={t('unsubscribe.intro')} />
      {(mutation.isError || !token) && (
        <p className="form-error" role="alert">
          {token ? errorText(mutation.error, t('unsubscribe.invalid')) : t('unsubscribe.invalid')}
        </p>
      )}
      <Button
        size="lg"
        block
        disabled={!token}
        busy={mutation.isPending}
        busyText={t('unsubscribe.working')}
        onClick={() => mutation.mutate()}
      >
        {t('unsubscribe.confirm')}
      </Button>
      <p className="auth-switch">
        <ButtonLink to="/profile" variant="ghost">
          {t('unsubscribe.profile')}
        </ButtonLink>
      </p>
    </AuthLayout>
  );
}
