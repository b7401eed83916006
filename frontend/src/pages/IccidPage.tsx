import { Navigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { REDEMPTION_THRESHOLD_POINTS } from '@esim/contracts';
import { useAuth } from '../auth/AuthProvider';
import { ComingSoon } from '../components/ComingSoon';
import { GiftIcon } from '../ui';

/**
 * /iccid: redeem points for eSIM data (new eSIM or top-up) — placeholder until the feature lands.
 * Only reachable at 1000 points or more (spec section 2); below that the dashboard explains why.
 */
export default function IccidPage() {
  const { t } = useTranslation();
  const { user } = useAuth();
  if (!user || user.points < REDEMPTION_THRESHOLD_POINTS) return <Navigate to="/dashboard" replace />;
  return <ComingSoon title={t('placeholders.iccid.title')} description={t('placeholders.iccid.text')} icon={<GiftIcon size={32} />} withNav={false} />;
}
