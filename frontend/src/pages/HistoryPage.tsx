import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../components/ComingSoon';
import { ClockIcon } from '../ui';

/** /history: completed missions grouped by day — placeholder until the feature lands. */
export default function HistoryPage() {
  const { t } = useTranslation();
  return <ComingSoon title={t('placeholders.history.title')} description={t('placeholders.history.text')} icon={<ClockIcon size={32} />} />;
}
