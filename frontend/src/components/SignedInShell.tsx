import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { AppNav } from './AppNav';
import { Brand } from './Brand';

/** The signed-in pages that show the bottom bar (AppNav): their shell shows it too, so it does not jump in. */
export const PAGES_WITH_NAV: readonly string[] = ['/dashboard', '/task', '/history', '/esims', '/profile', '/adwall'];

/**
 * What a signed-in page shows before it can show itself: the header, the bottom bar and a skeleton
 * of the page, announced as loading (aria-busy, role=status). RequireAuth shows it while the session
 * and the page's code load, and the build pre-renders it for every signed-in route
 * (scripts/prerender.mjs), which the gateway sends to a request with a session cookie: the first
 * paint is the app's frame rather than a blank page.
 */
export function SignedInShell() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const withNav = PAGES_WITH_NAV.includes(pathname);
  return (
    <>
      <header className="app-header">
        <div className="app-header__inner">
          <Brand to="/dashboard" />
        </div>
      </header>
      <main id="main" className={['page', 'page-skeleton', withNav && 'page--with-nav'].filter(Boolean).join(' ')} aria-busy="true" data-testid="signed-in-shell">
        <p role="status" className="visually-hidden">
          {t('common.loading')}
        </p>
        <div className="skeleton skeleton--title" aria-hidden="true" />
        <div className="skeleton skeleton--line" aria-hidden="true" />
        <div className="skeleton skeleton--card" aria-hidden="true" />
        <div className="skeleton skeleton--card skeleton--short" aria-hidden="true" />
      </main>
      {withNav && <AppNav />}
    </>
  );
}
