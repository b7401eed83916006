import { useTranslation } from 'react-i18next';
import { useAuth } from '../auth/AuthProvider';
import { ComingSoon } from '../components/ComingSoon';
import { useDocumentTitle } from '../lib/useDocumentTitle';
import { ButtonLink, Card, EmptyState, LockIcon, ShieldIcon } from '../ui';

/** /admin: stats, gifting and the user table (to come). Non-admins are refused here; the server enforces it too. */
export default function AdminPage() {
  const { user } = useAuth();
  const { t } = useTranslation();
  if (!user?.isAdmin) return <AccessDenied />;
  return <ComingSoon title={t('placeholders.admin.title')} description={t('placeholders.admin.text')} icon={<ShieldIcon size={32} />} withNav={false} />;
}

function AccessDenied() {
  const { t } = useTranslation();
  useDocumentTitle(t('admin.accessDeniedTitle'));
  return (
    <main id="main" className="page page--centered">
      <Card>
        <EmptyState
          headingLevel={1}
          icon={<LockIcon size={32} />}
          title={t('admin.accessDeniedTitle')}
          description={t('admin.accessDeniedText')}
          action={
            <ButtonLink to="/dashboard" block>
              {t('common.backToDashboard')}
            </ButtonLink>
          }
        />
      </Card>
    </main>
  );
}
