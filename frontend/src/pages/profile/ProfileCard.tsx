import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { UserView } from '@esim/contracts';
import { formatNumber, initials } from '../../lib/format';
import { Card } from '../../ui';

/** Avatar, name, email, balance and (for admins) the way to /admin. */
export function ProfileCard({ user }: { user: UserView }) {
  const { t, i18n } = useTranslation();
  return (
    <Card className="profile-card" aria-label={t('profile.card.label')}>
      <div className="profile-card__row">
        <span className="avatar avatar--lg" aria-hidden="true">
          {initials(user.name)}
        </span>
        <div className="profile-card__text">
          <p className="profile-card__name">{user.name}</p>
          <p className="muted small profile-card__email">{user.email}</p>
          <div className="row row--wrap">
            <span className="badge">{t('common.mbValue', { value: formatNumber(user.points, i18n.language) })}</span>
            {user.isAdmin && <span className="badge badge--success">{t('profile.card.admin')}</span>}
          </div>
        </div>
      </div>
      {user.isAdmin && (
        <Link to="/admin" className="inline-link small">
          {t('profile.card.adminLink')}
        </Link>
      )}
    </Card>
  );
}
