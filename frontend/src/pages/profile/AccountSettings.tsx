import { useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { UpdateProfileRequest, UpdateProfileResponse, UserView } from '@esim/contracts';
import { USER_QUERY_KEY } from '../../auth/AuthProvider';
import { apiJson } from '../../lib/api';
import { useErrorText } from '../../lib/useErrorText';
import { PASSWORD_MIN_LENGTH } from '../auth/validation';
import { Button, Card, EditIcon, Input, useToast } from '../../ui';
import { ConfirmEmailChange } from './ConfirmEmailChange';

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

/** Name, email, phone and password: shown, then edited in place. */
export function AccountSettings({ user }: { user: UserView }) {
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

  const mutation = useMutation<UpdateProfileResponse | undefined, Error, UpdateProfileRequest>({
    mutationFn: (body) => apiJson<UpdateProfileResponse | undefined>('PATCH', '/api/user/profile', body),
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
    const body: UpdateProfileRequest = { username: form.username.trim(), email: form.email.trim(), phone: form.phone.trim() };
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
