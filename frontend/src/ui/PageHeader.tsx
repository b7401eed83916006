import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ArrowBackIcon } from './icons';

interface PageHeaderProps {
  title: ReactNode;
  subtitle?: ReactNode;
  /** A back control: a link target or a click handler, with its accessible label. */
  back?: { to: string; label: string } | { onClick: () => void; label: string };
  actions?: ReactNode;
}

export function PageHeader({ title, subtitle, back, actions }: PageHeaderProps) {
  return (
    <header className="page-header">
      {back &&
        ('to' in back ? (
          <Link to={back.to} className="icon-button" aria-label={back.label}>
            <ArrowBackIcon />
          </Link>
        ) : (
          <button type="button" className="icon-button" aria-label={back.label} onClick={back.onClick}>
            <ArrowBackIcon />
          </button>
        ))}
      <div className="page-header__text">
        <h1 className="page-header__title">{title}</h1>
        {subtitle && <p className="page-header__subtitle">{subtitle}</p>}
      </div>
      {actions && <div className="page-header__actions">{actions}</div>}
    </header>
  );
}
