import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { isOfferwallId } from '@esim/contracts';
import { AppNav } from '../components/AppNav';
import { useDocumentTitle } from '../lib/useDocumentTitle';
import { PageHeader } from '../ui';
import { ClaimForm } from './claims/ClaimForm';
import { ClaimList } from './claims/ClaimList';
import './claims/claims.css';

/**
 * /claims (docs/earning.md, "Missing credit"): report an offer completed and never credited
 * (`?wall=<id>` chooses the wall), and the user's claims with each decision.
 */
export default function ClaimsPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const wall = params.get('wall');
  useDocumentTitle(t('claims.title'));
  return (
    <>
      <main id="main" className="page page--with-nav earning">
        <PageHeader title={t('claims.title')} subtitle={t('claims.subtitle')} back={{ to: '/task', label: t('common.back') }} />
        <ClaimForm initialWall={isOfferwallId(wall) ? wall : null} />
        <ClaimList />
      </main>
      <AppNav />
    </>
  );
}
