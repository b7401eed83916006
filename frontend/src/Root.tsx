import { StrictMode, type ComponentType, type ReactNode } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { AppRoutes } from './App';
import { AuthProvider } from './auth/AuthProvider';
import { HydrateLater } from './lib/hydrateLater';
import { FullPageSpinner, ToastProvider } from './ui';

/** Toasts need their labels translated, so they sit inside the i18n Suspense boundary. */
function TranslatedToasts({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <ToastProvider dismissLabel={t('common.dismiss')} regionLabel={t('common.notifications')}>
      {children}
    </ToastProvider>
  );
}

/**
 * The whole app under its providers. The browser (main.tsx) and the build's pre-renderer
 * (entry-server.tsx) render this same tree, each with its own router, so a pre-rendered page's
 * HTML is exactly what hydration expects.
 */
export function Root({ queryClient, Router }: { queryClient: QueryClient; Router: ComponentType<{ children: ReactNode }> }) {
  return (
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <Router>
          {/* Waits for the active locale's chunk. A pre-rendered page hydrates in steps (HydrateLater):
              the providers here, then the texts and the session, then the routes, then the page. */}
          <HydrateLater id="app" fallback={<FullPageSpinner />}>
            <TranslatedToasts>
              <AuthProvider>
                <HydrateLater id="routes" fallback={<FullPageSpinner />}>
                  <AppRoutes />
                </HydrateLater>
              </AuthProvider>
            </TranslatedToasts>
          </HydrateLater>
        </Router>
      </QueryClientProvider>
    </StrictMode>
  );
}
