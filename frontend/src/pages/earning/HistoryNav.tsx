import { NavLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../auth/AuthProvider';
import { ClockIcon, HomeIcon, LogoutIcon, Spinner, TargetIcon } from '../../ui';

/** /history's bottom navigation (spec section 2): home, tasks, history, and logout. */
export function HistoryNav() {
  const { t } = useTranslation();
  const { logoutMutation } = useAuth();
  const links = [
    { to: '/dashboard', label: t('nav.dashboard'), icon: <HomeIcon /> },
    { to: '/task', label: t('nav.tasks'), icon: <TargetIcon /> },
    { to: '/history', label: t('nav.history'), icon: <ClockIcon /> },
  ];
  return (
    <nav className="bottom-nav" aria-label={t('nav.label')}>
      <ul className="bottom-nav__list">
        {links.map((item) => (
          <li key={item.to}>
            <NavLink to={item.to} className="bottom-nav__link" end>
              <span className="bottom-nav__icon" aria-hidden="true">
                {item.icon}
              </span>
              <span className="bottom-nav__label">{item.label}</span>
            </NavLink>
          </li>
        ))}
        <li>
          <button
            type="button"
            className="bottom-nav__link bottom-nav__button"
            onClick={() => logoutMutation.mutate()}
            disabled={logoutMutation.isPending}
            aria-busy={logoutMutation.isPending || undefined}
          >
            <span className="bottom-nav__icon" aria-hidden="true">
              {logoutMutation.isPending ? <Spinner size="sm" /> : <LogoutIcon />}
            </span>
            <span className="bottom-nav__label">{t('earning.history.logout')}</span>
          </button>
        </li>
      </ul>
    </nav>
  );
}
