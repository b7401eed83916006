import { useTranslation } from 'react-i18next';
import { useAuth } from '../../auth/AuthProvider';
import { Button, LogoutIcon } from '../../ui';

/** Ends the session (POST /api/logout) and goes home. */
export function SignOut() {
  const { t } = useTranslation();
  const { logoutMutation } = useAuth();
  return (
    <Button variant="secondary" size="lg" block icon={<LogoutIcon size={20} />} busy={logoutMutation.isPending} busyText={t('profile.signingOut')} onClick={() => logoutMutation.mutate()}>
      {t('profile.signOut')}
    </Button>
  );
}
