import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { BRAND_NAME } from '../brand';
import { formatDate } from '../lib/format';
import { HydrateLater } from '../lib/hydrateLater';
import { useDocumentTitle } from '../lib/useDocumentTitle';
import { Card, PageHeader } from '../ui';

/** Effective date of both legal pages (spec section 2). */
const EFFECTIVE_DATE = '2025-08-29T12:00:00Z';

interface LegalPageProps {
  /** `legal.privacy` or `legal.terms`. */
  base: 'legal.privacy' | 'legal.terms';
  /** Section ids under `${base}.sections`, each with a title and paragraphs p1..pn. */
  sections: ReadonlyArray<{ id: string; paragraphs: number }>;
}

export function LegalPage({ base, sections }: LegalPageProps) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const title = t(`${base}.title`);
  useDocumentTitle(title);
  const vars = { brand: BRAND_NAME };

  const goBack = () => {
    // Opened in a new tab from the app there is no history: go home instead.
    if (window.history.state && typeof window.history.state.idx === 'number' && window.history.state.idx > 0) navigate(-1);
    else navigate('/');
  };

  return (
    <main id="main" className="page legal">
      <PageHeader title={title} subtitle={t('legal.effectiveDate', { date: formatDate(EFFECTIVE_DATE, i18n.language) })} back={{ onClick: goBack, label: t('common.back') }} />
      <Card as="article" aria-label={title}>
        <p className="legal__intro">{t(`${base}.intro`, vars)}</p>
        {/* Each section hydrates in a step of its own on the pre-rendered page (HydrateLater). */}
        {sections.map((section, index) => (
          <HydrateLater key={section.id} id={`legal-${section.id}`}>
            <section className="legal__section" aria-labelledby={`legal-${section.id}`}>
              <h2 id={`legal-${section.id}`} className="legal__heading">
                {index + 1}. {t(`${base}.sections.${section.id}.title`)}
              </h2>
              {Array.from({ length: section.paragraphs }, (_, i) => (
                <p key={i}>{t(`${base}.sections.${section.id}.p${i + 1}`, vars)}</p>
              ))}
            </section>
          </HydrateLater>
        ))}
      </Card>
    </main>
  );
}
