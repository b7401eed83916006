import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../components/ComingSoon';
import { SparkIcon } from '../ui';

/** /adwall: earn more data — placeholder until the feature lands. */
export default function AdwallPage() {
  const { t } = useTranslation();
  return <ComingSoon title={t('placeholders.adwall.title')} description={t('placeholders.adwall.text')} icon={<SparkIcon size={32} />} />;
}
