import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useDocumentTitle } from '../lib/useDocumentTitle';
import { ButtonLink, Card, EmptyState, PageHeader, RocketIcon } from '../ui';
import { AppNav } from './AppNav';

interface ComingSoonProps {
  /** Page title (h1). */
  title: string;
  /** What the page will do, in one or two sentences. */
  description: string;
  icon?: ReactNode;
  /** Show the bottom navigation (pages of the main tab bar). */
  withNav?: boolean;
}

/** Placeholder for a screen that another part of the team is building. */
export function ComingSoon({ title, description, icon, withNav = true }: ComingSoonProps) {
  const { t } = useTranslation();
  useDocumentTitle(title);
  return (
    <>
      <main id="main" className={withNav ? 'page page--with-nav' : 'page'}>
        <PageHeader title={title} back={{ to: '/dashboard', label: t('common.back') }} />
        <Card>
          <EmptyState
            icon={icon ?? <RocketIcon size={32} />}
            title={t('comingSoon.title')}
            description={description}
            action={
              <ButtonLink to="/dashboard" variant="secondary" block>
                {t('common.backToDashboard')}
              </ButtonLink>
            }
          />
        </Card>
      </main>
      {withNav && <AppNav />}
    </>
  );
}
