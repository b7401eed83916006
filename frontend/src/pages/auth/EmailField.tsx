import { forwardRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Input, type InputProps } from '../../ui/Input';

/** The email field of every auth form: the right keyboard, autofill and no auto-capitalisation. */
export const EmailField = forwardRef<HTMLInputElement, Omit<InputProps, 'label' | 'type' | 'name'>>(function EmailField(props, ref) {
  const { t } = useTranslation();
  return (
    <Input ref={ref} label={t('auth.fields.email')} type="email" name="email" autoComplete="email" inputMode="email" autoCapitalize="none" spellCheck="false" required {...props} />
  );
});
