import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../components/ComingSoon';
import { SimIcon } from '../ui';

/** /esims: the user's eSIM purchases — placeholder until the feature lands. */
export default function EsimsPage() {
  const { t } = useTranslation();
  return <ComingSoon title={t('placeholders.esims.title')} description={t('placeholders.esims.text')} icon={<SimIcon size={32} />} />;
}
