import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { UserSettings, UserView } from '@esim/contracts';
import { USER_QUERY_KEY } from '../../auth/AuthProvider';
import { apiRequest } from '../../lib/api';
import { subscribeToPush, unsubscribeFromPush } from '../../pwa/pushSubscription';
import { useErrorText } from '../../lib/useErrorText';
import { Card, ExternalIcon, Switch, useToast } from '../../ui';

const NOTIFICATION_TOGGLES = ['emailNotifications', 'pushNotifications', 'dataAlerts', 'marketingEmails'] as const;
// twoFactorAuth is not a switch: it changes only by enrolling or disabling (TwoFactorSettings).
const PRIVACY_TOGGLES = ['privateProfile'] as const;
type ToggleKey = keyof UserSettings;

/** The notification and privacy switches, each saved as it is flipped. */
export function NotificationSettings({ user }: { user: UserView }) {
  const { t } = useTranslation();
  const { toast } = useToast();
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const [settings, setSettings] = useState<UserSettings>(() => ({ ...user.settings }));
  const [saving, setSaving] = useState<Partial<Record<ToggleKey, boolean>>>({});

  const toggle = async (key: ToggleKey, value: boolean) => {
    const previous = settings[key];
    setSettings((s) => ({ ...s, [key]: value }));
    setSaving((s) => ({ ...s, [key]: true }));
    try {
      await apiRequest('PATCH', '/api/user/settings', { [key]: value });
      queryClient.setQueryData<UserView | null>(USER_QUERY_KEY, (old) => (old ? { ...old, settings: { ...old.settings, [key]: value } } : old));
      toast({ title: t('profile.toast.settingsSaved'), variant: 'success' });
      if (key === 'pushNotifications') await followPushSwitch(value);
    } catch (error) {
      setSettings((s) => ({ ...s, [key]: previous }));
      toast({ title: t('profile.toast.settingsFailed'), description: errorText(error), variant: 'destructive' });
    } finally {
      setSaving((s) => ({ ...s, [key]: false }));
    }
  };

  /** Push on: this browser subscribes (asking for permission); off: it stops receiving pushes. */
  const followPushSwitch = async (on: boolean) => {
    try {
      if (!on) return await unsubscribeFromPush();
      const setup = await subscribeToPush();
      if (setup === 'subscribed') toast({ title: t('push.enabled'), variant: 'success' });
      else toast({ title: t(setup === 'denied' ? 'push.denied' : 'push.unsupported') });
    } catch (error) {
      toast({ title: t('push.failed'), description: errorText(error), variant: 'destructive' });
    }
  };

  const renderSwitch = (key: ToggleKey) => (
    <Switch
      key={key}
      name={key}
      label={t(`profile.settings.${key}`)}
      description={t(`profile.settings.${key}Text`)}
      checked={settings[key] ?? false}
      busy={saving[key]}
      disabled={saving[key]}
      onChange={(value) => void toggle(key, value)}
    />
  );

  return (
    <>
      <Card title={t('profile.notifications.title')} titleId="notifications-title">
        <div>{NOTIFICATION_TOGGLES.map(renderSwitch)}</div>
      </Card>
      <Card title={t('profile.privacy.title')} titleId="privacy-title">
        <div>{PRIVACY_TOGGLES.map(renderSwitch)}</div>
        <ul className="link-list">
          <li>
            <Link to="/privacy" target="_blank" rel="noopener noreferrer">
              <span>{t('common.privacyPolicy')}</span>
              <span className="visually-hidden"> ({t('common.opensInNewTab')})</span>
              <ExternalIcon size={18} />
            </Link>
          </li>
          <li>
            <Link to="/terms" target="_blank" rel="noopener noreferrer">
              <span>{t('common.termsOfService')}</span>
              <span className="visually-hidden"> ({t('common.opensInNewTab')})</span>
              <ExternalIcon size={18} />
            </Link>
          </li>
        </ul>
      </Card>
    </>
  );
}
