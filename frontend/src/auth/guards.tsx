import { Suspense, type ReactNode } from 'react';
import { Navigate, Outlet } from 'react-router';
import { useTranslation } from 'react-i18next';
import { SignedInShell } from '../components/SignedInShell';
import { FullPageSpinner } from '../ui';
import { useAuth } from './AuthProvider';

/**
 * Protected pages: the signed-in shell (header, bottom bar, the page's skeleton) while the session
 * or the page's code loads — the same frame the gateway's first paint shows (SignedInShell) — then
 * the page; without a user, /auth (or / right after signing out or deleting the account).
 */
export function RequireAuth({ children }: { children?: ReactNode }) {
  const { status, signedOutRedirect } = useAuth();
  if (status === 'loading') return <SignedInShell />;
  if (status === 'signedOut') return <Navigate to={signedOutRedirect} replace />;
  return <Suspense fallback={<SignedInShell />}>{children ?? <Outlet />}</Suspense>;
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
