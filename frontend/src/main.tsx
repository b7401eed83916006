import { StrictMode, Suspense, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter } from 'react-router';
import { useTranslation } from 'react-i18next';
import './styles/tokens.css';
import './styles/base.css';
import './ui/ui.css';
import './styles/app.css';
import './i18n';
import { AppRoutes } from './App';
import { AuthProvider, USER_QUERY_KEY } from './auth/AuthProvider';
import { getQueryFn } from './lib/api';
import { queryClient } from './lib/queryClient';
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

// Ask for the session while the locale chunk downloads, rather than after it.
void queryClient.prefetchQuery({ queryKey: USER_QUERY_KEY, queryFn: getQueryFn({ on401: 'returnNull' }) });

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        {/* Waits for the active locale's chunk. */}
        <Suspense fallback={<FullPageSpinner />}>
          <TranslatedToasts>
            <AuthProvider>
              <AppRoutes />
            </AuthProvider>
          </TranslatedToasts>
        </Suspense>
      </BrowserRouter>
    </QueryClientProvider>
  </StrictMode>,
);
