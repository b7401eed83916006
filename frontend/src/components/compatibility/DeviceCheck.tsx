import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

const DeviceVerdict = lazy(() => import('./DeviceVerdict'));

/**
 * "Will it work on your phone?" on the landing page and the dashboard (docs/wallet.md): the
 * heading and a "checking" line are rendered at once (and pre-rendered with the landing page);
 * the verdict, which needs the browser (the model it reports) and the server's answer, is its own
 * chunk loaded after the page has mounted, so the landing page's first-load JavaScript stays small.
 */
export function DeviceCheck({ variant = 'section' }: { variant?: 'section' | 'card' }) {
  const { t } = useTranslation();
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  const checking = <p className="muted small">{t('compat.checking')}</p>;
  return (
    <section
      className={variant === 'card' ? 'card device-check' : 'landing-section device-check'}
      aria-labelledby={`device-check-title-${variant}`}
      data-testid="device-check"
    >
      <h2 id={`device-check-title-${variant}`} className="section-title">
        {t('compat.title')}
      </h2>
      <p className="muted small">{t('compat.intro')}</p>
      {mounted ? (
        <Suspense fallback={checking}>
          <DeviceVerdict />
        </Suspense>
      ) : (
        checking
      )}
    </section>
  );
}
