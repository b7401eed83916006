/**
 * Build-time renderer (Node): `vite build --ssr src/entry-server.tsx` bundles it, and
 * scripts/prerender.mjs calls it to write the public pages' HTML for a visitor in every language, and
 * the signed-in shell of every protected page. It renders the same tree as boot.tsx (Root) with the same Preact (react is aliased to
 * preact/compat, vite.config.ts), so hydration adopts the markup as it is.
 */
import type { ReactElement, ReactNode } from 'react';
import type { VNode } from 'preact';
import { renderToStringAsync } from 'preact-render-to-string';
import { createRoutesFromChildren, StaticRouter, type RouteObject } from 'react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import { DEFAULT_LOCALE, LOCALES, RTL_LOCALES, SIGNUP_BONUS_POINTS, type Locale } from '@esim/contracts';
import { AppRoutes } from './App';
import { RequireAuth } from './auth/guards';
import { USER_QUERY_KEY } from './auth/AuthProvider';
import { BRAND_NAME } from './brand';
import { SignedInShell } from './components/SignedInShell';
import i18n, { startI18n } from './i18n';
import { prerenderedFormatsScript, takeFormatted } from './lib/format';
import { createQueryClient } from './lib/queryClient';
import { COUNTRIES } from './pages/LandingPage';
import { Root } from './Root';

export { BRAND_NAME, DEFAULT_LOCALE, LOCALES, RTL_LOCALES };

/** The #prerendered-formats script of the page renderPage rendered last (lib/format.ts), or '' when it formats nothing. */
export function renderedFormatsScript(): string {
  return takeFormatted().map(prerenderedFormatsScript).join('');
}

export interface PrerenderedPage {
  path: string;
  /** The query string this page answers (`?signup=true`), or '' for the bare path. */
  search: string;
  /** The document title, as useDocumentTitle sets it once the page runs. */
  title: string;
  description: string;
  /** The lazy page module (as in App.tsx), preloaded by the HTML so hydration need not wait for it. */
  module?: string;
}

/** Starts i18next and switches it to `locale`, its texts loaded. */
async function switchLocale(locale: Locale): Promise<void> {
  await startI18n();
  await i18n.changeLanguage(locale);
  if (i18n.resolvedLanguage !== locale) throw new Error(`pre-rendering needs the ${locale} texts, got ${i18n.resolvedLanguage}`);
}

/**
 * The public entries the product links to, written as HTML at build time in `locale` (the rest of
 * the app renders in the browser): the landing page (its hreflang links are `/?lng=<locale>`), the
 * sign-in page and its sign-up view (the landing page's, the emails' and the ads' target), the
 * legal pages.
 */
export async function prerenderedPages(locale: Locale): Promise<PrerenderedPage[]> {
  await switchLocale(locale);
  const t = i18n.getFixedT(locale);
  const brand = { brand: BRAND_NAME };
  const title = (page: string) => `${page} · ${BRAND_NAME}`;
  const auth = 'src/pages/AuthPage.tsx';
  const login = { title: title(t('auth.login.title')), description: t('auth.login.subtitle'), module: auth };
  return [
    { path: '/', search: '', title: title(t('landing.documentTitle')), description: t('landing.hero.subtitle', { countries: COUNTRIES }) },
    { path: '/auth', search: '', ...login },
    { path: '/auth', search: '?login=true', ...login },
    {
      path: '/auth',
      search: '?signup=true',
      title: title(t('auth.signup.title')),
      description: t('auth.signup.subtitle', { mb: new Intl.NumberFormat(locale).format(SIGNUP_BONUS_POINTS) }),
      module: auth,
    },
    {
      path: '/privacy',
      search: '',
      title: title(t('legal.privacy.title')),
      description: t('legal.privacy.intro', brand),
      module: 'src/pages/PrivacyPage.tsx',
    },
    { path: '/terms', search: '', title: title(t('legal.terms.title')), description: t('legal.terms.intro', brand), module: 'src/pages/TermsPage.tsx' },
  ];
}

/** The inner HTML of #root for `url` (path and query), as a signed-out visitor sees it in `locale`. */
export async function renderPage(url: string, locale: Locale = DEFAULT_LOCALE): Promise<string> {
  await switchLocale(locale);
  takeFormatted(); // what earlier renders formatted belongs to their pages
  const queryClient = createQueryClient();
  // A visitor: no session. The browser hydrates only when its own session read says the same.
  queryClient.setQueryData(USER_QUERY_KEY, null);
  const Router = ({ children }: { children: ReactNode }) => <StaticRouter location={url}>{children}</StaticRouter>;
  // The async renderer waits for what suspends (the lazy page, the texts), so the HTML holds the
  // page itself rather than a Suspense fallback. The JSX is typed as React's; it is Preact's.
  return renderToStringAsync((<Root queryClient={queryClient} Router={Router} />) as unknown as VNode);
}

/**
 * The inner HTML of #root for a signed-in page at `path` before its data is known: the signed-in
 * shell (header, bottom bar, the page's skeleton), as RequireAuth shows it while the session loads.
 * The browser renders the page afresh over it; it is never hydrated.
 */
export async function renderShell(path: string, locale: Locale = DEFAULT_LOCALE): Promise<string> {
  await switchLocale(locale);
  takeFormatted();
  return renderToStringAsync(
    (
      <QueryClientProvider client={createQueryClient()}>
        <StaticRouter location={path}>
          <SignedInShell />
        </StaticRouter>
      </QueryClientProvider>
    ) as unknown as VNode,
  );
}

/**
 * Every routed path, split into the pages behind sign-in (under RequireAuth) and the public ones,
 * read from the route table itself so robots.txt follows App.tsx without a second list.
 */
export function routePaths(): { signedIn: string[]; public: string[] } {
  const signedIn = new Set<string>();
  const open = new Set<string>();
  const walk = (routes: RouteObject[], base: string, guarded: boolean) => {
    for (const route of routes) {
      const inside = guarded || (route.element as ReactElement | undefined)?.type === RequireAuth;
      const path = route.index ? base || '/' : route.path ? `${base}/${route.path}`.replace(/\/+/g, '/') : base;
      if ((route.path || route.index) && !path.includes('*') && !path.includes(':')) (inside ? signedIn : open).add(path);
      if (route.children) walk(route.children, path === '/' ? '' : path, inside);
    }
  };
  walk(createRoutesFromChildren((AppRoutes() as ReactElement<{ children: ReactNode }>).props.children), '', false);
  return { signedIn: [...signedIn].sort(), public: [...open].sort() };
}
