import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Brand } from '../../components/Brand';
import { LanguageSelect } from '../../components/LanguageSelect';
import { HydrateLater } from '../../lib/hydrateLater';

/** Centred card with the brand and language selector: the frame of /auth and /reset-password. Pre-rendered /auth hydrates it part by part (HydrateLater). */
export function AuthLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="auth-layout">
      <HydrateLater id="auth-header">
        <header className="auth-layout__header">
          <Brand />
          <LanguageSelect compact id="auth-language" />
        </header>
      </HydrateLater>
      <main id="main" className="auth-layout__main">
        <HydrateLater id="auth-card">
          <div className="auth-card">{children}</div>
        </HydrateLater>
      </main>
      <HydrateLater id="auth-footer">
        <footer className="auth-layout__footer">
          <Link to="/privacy" target="_blank" rel="noopener noreferrer">
            {t('common.privacyPolicy')}
            <span className="visually-hidden"> ({t('common.opensInNewTab')})</span>
          </Link>
          <span aria-hidden="true">·</span>
          <Link to="/terms" target="_blank" rel="noopener noreferrer">
            {t('common.termsOfService')}
            <span className="visually-hidden"> ({t('common.opensInNewTab')})</span>
          </Link>
        </footer>
      </HydrateLater>
    </div>
  );
}

export function AuthHeading({ icon, title, subtitle }: { icon?: ReactNode; title: ReactNode; subtitle?: ReactNode }) {
  return (
    <div className="auth-heading">
      {icon && (
        <span className="auth-heading__icon" aria-hidden="true">
          {icon}
        </span>
      )}
      <h1 className="auth-heading__title" tabIndex={-1}>
        {title}
      </h1>
      {subtitle && <p className="auth-heading__subtitle">{subtitle}</p>}
    </div>
  );
}
