import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../components/ComingSoon';
import { TargetIcon } from '../ui';

/** /task: missions and offer walls — placeholder until the feature lands. */
export default function TaskPage() {
  const { t } = useTranslation();
  return <ComingSoon title={t('placeholders.task.title')} description={t('placeholders.task.text')} icon={<TargetIcon size={32} />} />;
}
