import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../components/ComingSoon';
import { CardIcon } from '../ui';

/** /checkout: card payment for a prepaid plan — placeholder until the feature lands. */
export default function CheckoutPage() {
  const { t } = useTranslation();
  return <ComingSoon title={t('placeholders.checkout.title')} description={t('placeholders.checkout.text')} icon={<CardIcon size={32} />} withNav={false} />;
}
