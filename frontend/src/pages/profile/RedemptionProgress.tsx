import { useTranslation } from 'react-i18next';
import { REDEMPTION_THRESHOLD_POINTS, type UserView } from '@esim/contracts';
import { formatNumber } from '../../lib/format';
import { redemptionProgress } from '../../lib/points';
import { Card, ProgressBar } from '../../ui';

/** How far the balance is from the redemption threshold. */
export function RedemptionProgress({ user }: { user: UserView }) {
  const { t, i18n } = useTranslation();
  const n = (value: number) => formatNumber(value, i18n.language);
  const { percent, remaining, ready } = redemptionProgress(user.points);
  return (
    <Card title={t('profile.progress.title')} titleId="profile-progress-title">
      <ProgressBar
        value={percent}
        label={t('dashboard.progress.barLabel', { goal: n(REDEMPTION_THRESHOLD_POINTS) })}
        valueText={t('dashboard.progress.percent', { percent: n(Math.floor(percent)) })}
      />
      <div className="row row--between small">
        <span>{t('profile.progress.count', { points: n(Math.max(0, user.points)), goal: n(REDEMPTION_THRESHOLD_POINTS) })}</span>
        <span className="strong">{ready ? t('dashboard.progress.ready') : t('dashboard.progress.remaining', { mb: n(remaining) })}</span>
      </div>
    </Card>
  );
}
