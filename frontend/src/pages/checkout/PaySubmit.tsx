import { useTranslation } from 'react-i18next';
import { Button, CardIcon } from '../../ui';

/** The end of both card forms (Stripe's Payment Element and the sandbox's): the refusal, if any, and the pay button. */
export function PaySubmit({ error, busy, disabled, label }: { error: string | null; busy: boolean; disabled: boolean; label: string }) {
  const { t } = useTranslation();
  return (
    <>
      {error && (
        <p className="form-error" role="alert" data-testid="payment-error">
          {error}
        </p>
      )}
      <Button type="submit" size="lg" block busy={busy} busyText={t('checkout.paying')} icon={<CardIcon size={20} />} disabled={disabled}>
        {label}
      </Button>
    </>
  );
}
