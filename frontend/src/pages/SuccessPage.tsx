import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../components/ComingSoon';
import { CheckIcon } from '../ui';

/** /success: purchase confirmation and gifted-data summary — placeholder until the feature lands. */
export default function SuccessPage() {
  const { t } = useTranslation();
  return <ComingSoon title={t('placeholders.success.title')} description={t('placeholders.success.text')} icon={<CheckIcon size={32} />} withNav={false} />;
}
