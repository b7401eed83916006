import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ArrowForwardIcon } from '../../ui';
import './claims.css';

/** The way into a missing-credit claim, from /task and /history. */
export function MissingCreditLink() {
  const { t } = useTranslation();
  return (
    <p>
      <Link to="/claims" className="claims-link" data-testid="missing-credit-link">
        <span>{t('claims.link')}</span>
        <ArrowForwardIcon size={16} />
      </Link>
    </p>
  );
}
