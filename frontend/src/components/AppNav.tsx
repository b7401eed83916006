import { useTranslation } from 'react-i18next';
import { BottomNav, ClockIcon, HomeIcon, SimIcon, TargetIcon, UserIcon } from '../ui';

/** The signed-in area's bottom navigation: dashboard, tasks, history, eSIMs, profile. */
export function AppNav() {
  const { t } = useTranslation();
  return (
    <BottomNav
      label={t('nav.label')}
      items={[
        { to: '/dashboard', label: t('nav.dashboard'), icon: <HomeIcon /> },
        { to: '/task', label: t('nav.tasks'), icon: <TargetIcon /> },
        { to: '/history', label: t('nav.history'), icon: <ClockIcon /> },
        { to: '/esims', label: t('nav.esims'), icon: <SimIcon /> },
        { to: '/profile', label: t('nav.profile'), icon: <UserIcon /> },
      ]}
    />
  );
}
