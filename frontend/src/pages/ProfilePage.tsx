import { useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { REDEMPTION_THRESHOLD_POINTS, type UserSettings, type UserView } from '@esim/contracts';
import { USER_QUERY_KEY, useAuth } from '../auth/AuthProvider';
import { AppNav } from '../components/AppNav';
import { LanguageSelect } from '../components/LanguageSelect';
import { apiJson, apiRequest } from '../lib/api';
import { daysSince, formatDate, formatNumber, initials } from '../lib/format';
import { redemptionProgress } from '../lib/points';
import { useDocumentTitle } from '../lib/useDocumentTitle';
import { useErrorText } from '../lib/useErrorText';
import { PASSWORD_MIN_LENGTH } from './auth/validation';
import { Button, Card, Dialog, EditIcon, ExternalIcon, Input, LogoutIcon, PageHeader, ProgressBar, Switch, TrashIcon, useToast } from '../ui';

interface TaskRecord {
  id: string;
  taskType: string;
  pointsEarned: number;
  completedAt: string;
  completed?: boolean;
}

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
        <AccountStats user={user} />
        <DangerZone />
        <SignOut />
      </main>
      <AppNav />
    </>
  );
}

function ProfileCard({ user }: { user: UserView }) {
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

function RedemptionProgress({ user }: { user: UserView }) {
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

interface ProfileForm {
  username: string;
  email: string;
  phone: string;
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}

type ProfileErrors = Partial<Record<keyof ProfileForm, string>>;

function formFromUser(user: UserView): ProfileForm {
  return { username: user.name, email: user.email, phone: user.phone ?? '', currentPassword: '', newPassword: '', confirmPassword: '' };
}

function AccountSettings({ user }: { user: UserView }) {
  const { t } = useTranslation();
  const { toast } = useToast();
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [form, setForm] = useState<ProfileForm>(() => formFromUser(user));
  const [errors, setErrors] = useState<ProfileErrors>({});
  const formRef = useRef<HTMLFormElement>(null);
  const editButtonRef = useRef<HTMLButtonElement>(null);

  const [pendingEmail, setPendingEmail] = useState<string | null>(null);

  const mutation = useMutation<ProfileUpdateResult | undefined, Error, Record<string, string>>({
    mutationFn: (body) => apiJson<ProfileUpdateResult | undefined>('PATCH', '/api/user/profile', body),
    onSuccess: (result) => {
      const pending = result?.pendingEmail ?? null;
      setPendingEmail(pending);
      toast({
        title: t('profile.toast.updated'),
        description: pending ? t('profile.emailChange.text', { email: pending }) : t('profile.toast.updatedText'),
        variant: 'success',
      });
      void queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY });
      setEditing(false);
      setForm((f) => ({ ...f, currentPassword: '', newPassword: '', confirmPassword: '' }));
      requestAnimationFrame(() => editButtonRef.current?.focus());
    },
    onError: (error) => toast({ title: t('profile.toast.updateFailed'), description: errorText(error), variant: 'destructive' }),
  });

  const set = (key: keyof ProfileForm) => (event: ChangeEvent<HTMLInputElement>) => setForm({ ...form, [key]: event.target.value });

  const startEditing = () => {
    setForm(formFromUser(user));
    setErrors({});
    setEditing(true);
    requestAnimationFrame(() => formRef.current?.querySelector<HTMLInputElement>('input')?.focus());
  };

  const cancel = () => {
    setEditing(false);
    setErrors({});
    requestAnimationFrame(() => editButtonRef.current?.focus());
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (form.newPassword !== form.confirmPassword) {
      toast({ title: t('profile.toast.passwordMismatch'), description: t('profile.toast.passwordMismatchText'), variant: 'destructive' });
      setErrors({ confirmPassword: t('profile.toast.passwordMismatch') });
      formRef.current?.querySelector<HTMLInputElement>('[name="confirmPassword"]')?.focus();
      return;
    }
    const next: ProfileErrors = {};
    if (!form.username.trim()) next.username = t('auth.validation.nameRequired');
    if (!form.email.trim()) next.email = t('auth.validation.emailRequired');
    if (form.newPassword && form.newPassword.length < PASSWORD_MIN_LENGTH) next.newPassword = t('auth.validation.passwordMin', { min: PASSWORD_MIN_LENGTH });
    const emailChanged = form.email.trim().toLowerCase() !== user.email.toLowerCase();
    if (form.newPassword && !form.currentPassword) next.currentPassword = t('profile.account.currentRequired');
    else if (emailChanged && !form.currentPassword) next.currentPassword = t('profile.account.emailNeedsPassword');
    setErrors(next);
    const firstInvalid = (Object.keys(next) as Array<keyof ProfileForm>)[0];
    if (firstInvalid) {
      formRef.current?.querySelector<HTMLInputElement>(`[name="${firstInvalid}"]`)?.focus();
      return;
    }
    const body: Record<string, string> = { username: form.username.trim(), email: form.email.trim(), phone: form.phone.trim() };
    // The password is changed, or the email (which the server only accepts with the current password).
    if (form.newPassword || emailChanged) body.currentPassword = form.currentPassword;
    if (form.newPassword) body.newPassword = form.newPassword;
    mutation.mutate(body);
  };

  return (
    <Card
      title={t('profile.account.title')}
      titleId="account-title"
      action={
        !editing && (
          <Button ref={editButtonRef} variant="ghost" size="sm" icon={<EditIcon size={18} />} onClick={startEditing}>
            {t('profile.account.edit')}
          </Button>
        )
      }
    >
      {!editing ? (
        <dl className="detail-list">
          <div>
            <dt>{t('profile.account.username')}</dt>
            <dd>{user.name}</dd>
          </div>
          <div>
            <dt>{t('profile.account.email')}</dt>
            <dd>{user.email}</dd>
          </div>
          <div>
            <dt>{t('profile.account.phone')}</dt>
            <dd className={user.phone ? undefined : 'muted'}>{user.phone || t('profile.account.notSet')}</dd>
          </div>
        </dl>
      ) : (
        <form ref={formRef} className="form" onSubmit={submit} noValidate aria-labelledby="account-title">
          <Input label={t('profile.account.username')} name="username" autoComplete="nickname" maxLength={80} value={form.username} onChange={set('username')} error={errors.username} />
          <Input
            label={t('profile.account.email')}
            name="email"
            type="email"
            autoComplete="email"
            inputMode="email"
            autoCapitalize="none"
            value={form.email}
            onChange={set('email')}
            error={errors.email}
          />
          <Input label={t('profile.account.phone')} name="phone" type="tel" autoComplete="tel" hint={t('profile.account.optional')} value={form.phone} onChange={set('phone')} error={errors.phone} />
          <fieldset className="fieldset">
            <legend className="fieldset__legend">{t('profile.account.passwordTitle')}</legend>
            <p className="muted small">{t('profile.account.passwordHint')}</p>
            <Input
              label={t('profile.account.currentPassword')}
              name="currentPassword"
              type="password"
              autoComplete="current-password"
              value={form.currentPassword}
              onChange={set('currentPassword')}
              error={errors.currentPassword}
            />
            <Input
              label={t('profile.account.newPassword')}
              name="newPassword"
              type="password"
              autoComplete="new-password"
              hint={t('auth.passwordHint', { min: PASSWORD_MIN_LENGTH })}
              value={form.newPassword}
              onChange={set('newPassword')}
              error={errors.newPassword}
            />
            <Input
              label={t('profile.account.confirmPassword')}
              name="confirmPassword"
              type="password"
              autoComplete="new-password"
              value={form.confirmPassword}
              onChange={set('confirmPassword')}
              error={errors.confirmPassword}
            />
          </fieldset>
          <div className="button-row">
            <Button type="submit" busy={mutation.isPending} busyText={t('common.saving')}>
              {t('profile.account.save')}
            </Button>
            <Button variant="secondary" onClick={cancel} disabled={mutation.isPending}>
              {t('common.cancel')}
            </Button>
          </div>
        </form>
      )}
      {!editing && pendingEmail && <ConfirmEmailChange email={pendingEmail} onDone={() => setPendingEmail(null)} />}
    </Card>
  );
}

interface ProfileUpdateResult {
  user?: UserView;
  /** Set while a new address waits for the code sent to it. */
  pendingEmail?: string | null;
  message?: string;
}

/** A changed email takes effect only after the code sent to the new address is entered here. */
function ConfirmEmailChange({ email, onDone }: { email: string; onDone: () => void }) {
  const { t } = useTranslation();
  const { toast } = useToast();
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const mutation = useMutation<unknown, Error, string>({
    mutationFn: (value) => apiJson('POST', '/api/user/email/verify', { code: value }),
    onSuccess: () => {
      toast({ title: t('profile.toast.emailUpdated'), variant: 'success' });
      void queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY });
      onDone();
    },
    onError: (err) => toast({ title: t('profile.toast.emailUpdateFailed'), description: errorText(err), variant: 'destructive' }),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!/^\d{6}$/.test(code)) {
      setError(t('auth.validation.codeLength'));
      return;
    }
    setError(undefined);
    mutation.mutate(code);
  };

  return (
    <form className="form email-change" onSubmit={submit} noValidate aria-labelledby="email-change-title">
      <div className="stack stack--sm">
        <h3 id="email-change-title" className="section-title">
          {t('profile.emailChange.title')}
        </h3>
        <p className="muted small">{t('profile.emailChange.text', { email })}</p>
      </div>
      <Input
        className="code-input"
        label={t('auth.verify.codeLabel')}
        name="emailCode"
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="[0-9]*"
        maxLength={6}
        value={code}
        onChange={(e) => setCode(e.target.value.replace(/\D/g, '').slice(0, 6))}
        error={error}
      />
      <div className="button-row">
        <Button type="submit" busy={mutation.isPending} busyText={t('auth.verify.submitting')}>
          {t('profile.emailChange.submit')}
        </Button>
        <Button variant="secondary" onClick={onDone} disabled={mutation.isPending}>
          {t('common.cancel')}
        </Button>
      </div>
    </form>
  );
}

const NOTIFICATION_TOGGLES = ['emailNotifications', 'pushNotifications', 'dataAlerts', 'marketingEmails'] as const;
const PRIVACY_TOGGLES = ['twoFactorAuth', 'privateProfile'] as const;
type ToggleKey = keyof UserSettings;

function NotificationSettings({ user }: { user: UserView }) {
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
    } catch (error) {
      setSettings((s) => ({ ...s, [key]: previous }));
      toast({ title: t('profile.toast.settingsFailed'), description: errorText(error), variant: 'destructive' });
    } finally {
      setSaving((s) => ({ ...s, [key]: false }));
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

function AccountStats({ user }: { user: UserView }) {
  const { t, i18n } = useTranslation();
  const tasks = useQuery<TaskRecord[]>({ queryKey: ['/api/tasks'] });
  const n = (value: number) => formatNumber(value, i18n.language);
  const fromTasks = Array.isArray(tasks.data) && tasks.data.length > 0 ? tasks.data.reduce((sum, task) => sum + (Number(task.pointsEarned) || 0), 0) : null;
  const totalEarned = fromTasks ?? Math.max(0, user.points);
  return (
    <Card title={t('profile.stats.title')} titleId="stats-title">
      <dl className="stats-grid">
        <div>
          <dt>{t('profile.stats.totalEarned')}</dt>
          <dd>{tasks.isPending ? '…' : t('common.mbValue', { value: n(totalEarned) })}</dd>
        </div>
        <div>
          <dt>{t('profile.stats.daysActive')}</dt>
          <dd>{n(daysSince(user.createdAt))}</dd>
        </div>
        <div>
          <dt>{t('profile.stats.memberSince')}</dt>
          <dd>{formatDate(user.createdAt, i18n.language, { month: 'short', year: 'numeric' })}</dd>
        </div>
      </dl>
    </Card>
  );
}

function DangerZone() {
  const { t } = useTranslation();
  const { toast } = useToast();
  const errorText = useErrorText();
  const { endSession } = useAuth();
  const [open, setOpen] = useState(false);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const mutation = useMutation<void, Error, void>({
    mutationFn: async () => {
      await apiRequest('DELETE', '/api/user/account');
    },
    onSuccess: () => {
      setOpen(false);
      toast({ title: t('profile.toast.deleted'), description: t('profile.toast.deletedText'), variant: 'success' });
      endSession('/');
    },
    onError: (error) => toast({ title: t('profile.toast.deleteFailed'), description: errorText(error), variant: 'destructive' }),
  });

  return (
    <Card tone="danger" title={t('profile.danger.title')} titleId="danger-title">
      <p className="muted small">{t('profile.danger.text')}</p>
      <Button variant="danger" icon={<TrashIcon size={18} />} onClick={() => setOpen(true)}>
        {t('profile.danger.delete')}
      </Button>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        role="alertdialog"
        title={t('profile.danger.dialogTitle')}
        description={t('profile.danger.confirm')}
        closeLabel={t('common.close')}
        initialFocusRef={cancelRef}
        preventClose={mutation.isPending}
        footer={
          <>
            <Button ref={cancelRef} variant="secondary" onClick={() => setOpen(false)} disabled={mutation.isPending}>
              {t('common.cancel')}
            </Button>
            <Button variant="danger" busy={mutation.isPending} busyText={t('profile.danger.deleting')} onClick={() => mutation.mutate()}>
              {t('profile.danger.confirmButton')}
            </Button>
          </>
        }
      />
    </Card>
  );
}

function SignOut() {
  const { t } = useTranslation();
  const { logoutMutation } = useAuth();
  return (
    <Button variant="secondary" size="lg" block icon={<LogoutIcon size={20} />} busy={logoutMutation.isPending} busyText={t('profile.signingOut')} onClick={() => logoutMutation.mutate()}>
      {t('profile.signOut')}
    </Button>
  );
}
