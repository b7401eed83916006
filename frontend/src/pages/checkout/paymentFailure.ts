import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useToast } from '../../ui';

/**
 * A payment the provider refused (spec section 8, "Payment confirmation error"): a toast titled
 * 'Payment failed' with the provider's own message (Stripe words its messages for the cardholder).
 */
export function usePaymentFailure(): (providerMessage: string | null) => void {
  const { t } = useTranslation();
  const { toast } = useToast();
  return useCallback(
    (providerMessage) =>
      toast({
        title: t('checkout.failure.title'),
        description: providerMessage || t('checkout.failure.default'),
        variant: 'destructive',
        duration: 10_000,
      }),
    [t, toast],
  );
}
