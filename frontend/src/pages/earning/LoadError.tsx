import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../lib/useErrorText';
import { AlertIcon, Button, Card } from '../../ui';

/** A read failed: what failed, the server's (or network) reason, and a way to try again. */
export function LoadError({ title, error, onRetry, retrying }: { title: string; error: unknown; onRetry: () => void; retrying?: boolean }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  return (
    <Card className="load-error" role="alert">
      <div className="icon-row">
        <span className="icon-badge load-error__icon" aria-hidden="true">
          <AlertIcon size={22} />
        </span>
        <div className="stack stack--sm">
          <p className="strong">{title}</p>
          <p className="muted small">{errorText(error)}</p>
        </div>
      </div>
      <Button variant="secondary" onClick={onRetry} busy={retrying} busyText={t('common.loading')}>
        {t('earning.retry')}
      </Button>
    </Card>
  );
}
