import { useRef, useState } from 'react';
import { NavLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../auth/AuthProvider';
import { Button, ClockIcon, Dialog, HomeIcon, LogoutIcon, Spinner, TargetIcon } from '../../ui';

/**
 * /history's bottom navigation (spec section 2): home, tasks, history, and logout. Logout sits
 * where a thumb rests, so it asks first; the confirmation's focus starts on staying signed in.
 */
export function HistoryNav() {
  const { t } = useTranslation();
  const { logoutMutation } = useAuth();
  const [confirming, setConfirming] = useState(false);
  const stayRef = useRef<HTMLButtonElement>(null);
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
            onClick={() => setConfirming(true)}
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
      <Dialog
        open={confirming}
        onClose={() => setConfirming(false)}
        role="alertdialog"
        title={t('appCopy.logout.title')}
        description={t('appCopy.logout.text')}
        closeLabel={t('common.close')}
        initialFocusRef={stayRef}
        preventClose={logoutMutation.isPending}
        footer={
          <>
            <Button ref={stayRef} variant="secondary" onClick={() => setConfirming(false)} disabled={logoutMutation.isPending}>
              {t('appCopy.logout.cancel')}
            </Button>
            <Button variant="danger" icon={<LogoutIcon size={18} />} busy={logoutMutation.isPending} onClick={() => logoutMutation.mutate()}>
              {t('appCopy.logout.confirm')}
            </Button>
          </>
        }
      />
    </nav>
  );
}
