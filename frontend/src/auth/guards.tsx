import type { ReactNode } from 'react';
import { Navigate, Outlet } from 'react-router';
import { useTranslation } from 'react-i18next';
import { FullPageSpinner } from '../ui';
import { useAuth } from './AuthProvider';

/**
 * Protected pages: a centred spinner while the session loads; without a user, /auth (or / right
 * after signing out or deleting the account).
 */
export function RequireAuth({ children }: { children?: ReactNode }) {
  const { status, signedOutRedirect } = useAuth();
  const { t } = useTranslation();
  if (status === 'loading') return <FullPageSpinner label={t('common.loading')} />;
  if (status === 'signedOut') return <Navigate to={signedOutRedirect} replace />;
  return children ?? <Outlet />;
}

/**
 * Pages for visitors only (/ and /auth): a signed-in user goes to /dashboard. With `waitForSession`
 * a spinner shows until the session is known (so no form flashes before the redirect); otherwise
 * the page renders at once and redirects if a session turns up.
 */
export function VisitorOnly({ children, waitForSession = false }: { children: ReactNode; waitForSession?: boolean }) {
  const { status } = useAuth();
  const { t } = useTranslation();
  if (status === 'signedIn') return <Navigate to="/dashboard" replace />;
  if (status === 'loading' && waitForSession) return <FullPageSpinner label={t('common.loading')} />;
  return children;
}
