import { useTranslation } from 'react-i18next';
import { useDocumentTitle } from '../lib/useDocumentTitle';
import { AlertIcon, ButtonLink, Card, EmptyState } from '../ui';

export default function NotFoundPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('notFound.title'));
  return (
    <main id="main" className="page page--centered">
      <Card>
        <EmptyState
          headingLevel={1}
          icon={<AlertIcon size={32} />}
          title={t('notFound.title')}
          description={t('notFound.text')}
          action={
            <ButtonLink to="/" block>
              {t('notFound.home')}
            </ButtonLink>
          }
        />
      </Card>
    </main>
  );
}
