import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../auth/AuthProvider';
import { useDocumentTitle } from '../lib/useDocumentTitle';
import { Button, ButtonLink, Card, EmptyState, GiftIcon, LockIcon, PageHeader } from '../ui';
import { AuditTrail } from './admin/AuditTrail';
import { CreditClaims } from './admin/CreditClaims';
import { DeadLetters } from './admin/DeadLetters';
import { GiftDialog, type GiftTarget } from './admin/GiftDialog';
import { LinkedAccounts } from './admin/LinkedAccounts';
import { RedemptionReviews } from './admin/RedemptionReviews';
import { OperatorQueue } from './admin/OperatorQueue';
import { Refunds } from './admin/Refunds';
import { StatsCards } from './admin/StatsCards';
import { SupplierTest } from './admin/SupplierTest';
import { UserTable } from './admin/UserTable';
import './admin/admin.css';

/**
 * /admin (docs/admin.md): stat cards, the supplier test, gifting, the server-paged user table with
 * its CSV export, the operator queue, dead letters and the audit trail. Non-admins are refused here;
 * the server refuses every /api/admin call too.
 */
export default function AdminPage() {
  const { user } = useAuth();
  if (!user?.isAdmin) return <AccessDenied />;
  return <AdminConsole />;
}

function AdminConsole() {
  const { t } = useTranslation();
  useDocumentTitle(t('admin.title'));
  const [gift, setGift] = useState<{ open: boolean; target: GiftTarget | null }>({ open: false, target: null });
  return (
    <main id="main" className="page admin">
      <PageHeader title={t('admin.title')} subtitle={t('admin.subtitle')} back={{ to: '/dashboard', label: t('common.backToDashboard') }} />
      <StatsCards />
      <div className="admin__tools">
        <SupplierTest />
        <Card title={t('admin.gift.cardTitle')} titleId="admin-gift-title">
          <p className="muted small">{t('admin.gift.description')}</p>
          <div>
            <Button icon={<GiftIcon size={18} />} onClick={() => setGift({ open: true, target: null })}>
              {t('admin.gift.open')}
            </Button>
          </div>
        </Card>
      </div>
      <UserTable onGift={(target) => setGift({ open: true, target })} />
      <OperatorQueue />
      <CreditClaims />
      <RedemptionReviews />
      <LinkedAccounts />
      <Refunds />
      <DeadLetters />
      <AuditTrail />
      <GiftDialog open={gift.open} initialUser={gift.target} onClose={() => setGift({ open: false, target: null })} />
    </main>
  );
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
