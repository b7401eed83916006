import { useTranslation } from 'react-i18next';
import { useAuth } from '../auth/AuthProvider';
import { AppNav } from '../components/AppNav';
import { LanguageSelect } from '../components/LanguageSelect';
import { useDocumentTitle } from '../lib/useDocumentTitle';
import { Card, PageHeader } from '../ui';
import { AccountSettings } from './profile/AccountSettings';
import { ActiveSessions } from './profile/ActiveSessions';
import { AccountStats } from './profile/AccountStats';
import { DangerZone } from './profile/DangerZone';
import { NotificationSettings } from './profile/NotificationSettings';
import { PasskeySettings } from './profile/PasskeySettings';
import { ProfileCard } from './profile/ProfileCard';
import { RedemptionProgress } from './profile/RedemptionProgress';
import { SignOut } from './profile/SignOut';
import { TwoFactorSettings } from './profile/TwoFactorSettings';
import { YourData } from './profile/YourData';

/** /profile: one card per concern, each in its own file under pages/profile/. */
export default function ProfilePage() {
  const { user } = useAuth();
  const { t } = useTranslation();
  useDocumentTitle(t('profile.title'));
  if (!user) return null;
  return (
    <>
      <main id="main" className="page page--with-nav profile">
        <PageHeader title={t('profile.title')} back={{ to: '/dashboard', label: t('common.back') }} />
        <ProfileCard user={user} />
        <RedemptionProgress user={user} />
        <AccountSettings user={user} />
        <Card title={t('profile.language.title')} titleId="language-title">
          <LanguageSelect id="profile-language" hideLabel />
          <p className="muted small">{t('profile.language.hint')}</p>
        </Card>
        <NotificationSettings user={user} />
        <TwoFactorSettings user={user} />
        <PasskeySettings />
        <ActiveSessions />
        <AccountStats user={user} />
        <YourData />
        <DangerZone />
        <SignOut />
      </main>
      <AppNav />
    </>
  );
}
