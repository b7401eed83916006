import { useTranslation } from 'react-i18next';
import { Card } from '../../ui';

/**
 * "Download my data": a plain link to `GET /api/user/export`, which answers one JSON file as an
 * attachment (docs/accounts.md, "Your data"), so the browser saves it like any download.
 */
export function YourData() {
  const { t } = useTranslation();
  return (
    <Card title={t('yourData.title')} titleId="your-data-title">
      <p className="muted small" id="your-data-text">
        {t('yourData.text')}
      </p>
      <a className="btn btn--secondary" href="/api/user/export" download aria-describedby="your-data-text" data-testid="download-my-data">
        {t('yourData.download')}
      </a>
    </Card>
  );
}
