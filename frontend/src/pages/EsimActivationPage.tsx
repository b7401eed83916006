import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../components/ComingSoon';
import { SimIcon } from '../ui';

/** /esim-activation: QR code, LPA code and setup steps — placeholder until the feature lands. */
export default function EsimActivationPage() {
  const { t } = useTranslation();
  return <ComingSoon title={t('placeholders.esimActivation.title')} description={t('placeholders.esimActivation.text')} icon={<SimIcon size={32} />} withNav={false} />;
}
