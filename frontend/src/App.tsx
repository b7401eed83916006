import { lazy, Suspense, useEffect } from 'react';
import { Outlet, Route, Routes, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useAuth } from './auth/AuthProvider';
import { RequireAuth, VisitorOnly } from './auth/guards';
import { ErrorBoundary } from './components/ErrorBoundary';
import { useAdoptAccountLocale } from './i18n/useLocale';
import LandingPage from './pages/LandingPage';
import { HydrateLater } from './lib/hydrateLater';
import { lazyPage } from './lib/lazyPage';
import { FullPageSpinner } from './ui';

// Everything but the landing page is loaded on demand, so the first load stays small. lazyPage:
// the pages the build pre-renders (scripts/prerender.mjs), preloaded before hydration.
const AuthPage = lazyPage('/auth', () => import('./pages/AuthPage'));
const ResetPasswordPage = lazy(() => import('./pages/ResetPasswordPage'));
const UnsubscribePage = lazy(() => import('./pages/UnsubscribePage'));
const PrivacyPage = lazyPage('/privacy', () => import('./pages/PrivacyPage'));
const TermsPage = lazyPage('/terms', () => import('./pages/TermsPage'));
const NotFoundPage = lazy(() => import('./pages/NotFoundPage'));
const DashboardPage = lazy(() => import('./pages/DashboardPage'));
const ProfilePage = lazy(() => import('./pages/ProfilePage'));
const TaskPage = lazy(() => import('./pages/TaskPage'));
const HistoryPage = lazy(() => import('./pages/HistoryPage'));
const ClaimsPage = lazy(() => import('./pages/ClaimsPage'));
const IccidPage = lazy(() => import('./pages/IccidPage'));
const EsimActivationPage = lazy(() => import('./pages/EsimActivationPage'));
const SuccessPage = lazy(() => import('./pages/SuccessPage'));
const AdwallPage = lazy(() => import('./pages/AdwallPage'));
const EsimsPage = lazy(() => import('./pages/EsimsPage'));
const CheckoutPage = lazy(() => import('./pages/CheckoutPage'));
const AdminPage = lazy(() => import('./pages/AdminPage'));
// The signed-in user's live stream (docs/live-view.md): loaded once someone is signed in.
const LiveUpdates = lazy(() => import('./live/LiveUpdates'));

/** Spec section 2: every route of the product. */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<RootLayout />}>
        <Route
          index
          element={
            <VisitorOnly>
              <LandingPage />
            </VisitorOnly>
          }
        />
        <Route path="auth" element={<AuthPage />} />
        <Route path="reset-password" element={<ResetPasswordPage />} />
        <Route path="unsubscribe" element={<UnsubscribePage />} />
        <Route path="privacy" element={<PrivacyPage />} />
        <Route path="terms" element={<TermsPage />} />

        <Route element={<RequireAuth />}>
          <Route path="dashboard" element={<DashboardPage />} />
          <Route path="profile" element={<ProfilePage />} />
          <Route path="task" element={<TaskPage />} />
          <Route path="history" element={<HistoryPage />} />
          <Route path="claims" element={<ClaimsPage />} />
          <Route path="iccid" element={<IccidPage />} />
          <Route path="esim-activation" element={<EsimActivationPage />} />
          <Route path="success" element={<SuccessPage />} />
          <Route path="adwall" element={<AdwallPage />} />
          <Route path="esims" element={<EsimsPage />} />
          <Route path="checkout" element={<CheckoutPage />} />
          <Route path="admin" element={<AdminPage />} />
        </Route>

        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}

function RootLayout() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const { user } = useAuth();
  useAdoptAccountLocale();
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);
  // One element (laid out as its children: .app-shell is display: contents), so that the routes can
  // be hydrated in a step of their own (HydrateLater in Root.tsx keeps one DOM node while it waits).
  return (
    <div className="app-shell">
      <a className="skip-link" href="#main">
        {t('common.skipToContent')}
      </a>
      <ErrorBoundary resetKey={pathname}>
        {/* A pre-rendered page is hydrated in a task after the providers and routes around it. */}
        <HydrateLater id="page" fallback={<FullPageSpinner label={t('common.loading')} />}>
          <Outlet />
        </HydrateLater>
      </ErrorBoundary>
      {user && (
        <Suspense fallback={null}>
          <LiveUpdates userId={user.id} />
        </Suspense>
      )}
    </div>
  );
}
