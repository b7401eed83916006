import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertIcon, Button, Card, EmptyState } from '../ui';

interface State {
  error: Error | null;
}

/**
 * Catches render errors and failed lazy-chunk loads (e.g. an old tab after a deploy) so the app
 * shows a way out instead of a blank page.
 */
export class ErrorBoundary extends Component<{ children: ReactNode; resetKey?: string }, State> {
  state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('Unhandled UI error', error, info.componentStack);
  }

  componentDidUpdate(prev: { resetKey?: string }): void {
    // Navigating elsewhere clears the error.
    if (this.state.error && prev.resetKey !== this.props.resetKey) this.setState({ error: null });
  }

  render() {
    return this.state.error ? <ErrorFallback /> : this.props.children;
  }
}

function ErrorFallback() {
  const { t } = useTranslation();
  return (
    <main id="main" className="page page--centered">
      <Card>
        <EmptyState
          headingLevel={1}
          icon={<AlertIcon size={32} />}
          title={t('errors.generic')}
          action={
            <Button block onClick={() => window.location.reload()}>
              {t('errors.reload')}
            </Button>
          }
        />
      </Card>
    </main>
  );
}
