// The app itself: main.tsx loads it once the page has painted.
import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { currentLocale, i18nReady } from './i18n';
import { USER_QUERY_KEY } from './auth/AuthProvider';
import { getQueryFn } from './lib/api';
import { preloadPage } from './lib/lazyPage';
import { queryClient } from './lib/queryClient';
import { Root } from './Root';

const container = document.getElementById('root')!;

/**
 * The session: the gateway marks the page `data-session="none"` when the request carried no
 * session cookie, so a visitor's page asks nothing (a 401 would be logged as an error). Otherwise
 * it is asked for while the locale chunk downloads, rather than after it; this is the page's only
 * GET /api/user, as AuthProvider adopts the answer instead of asking again.
 */
const sessionReady =
  container.dataset.session === 'none'
    ? Promise.resolve(queryClient.setQueryData(USER_QUERY_KEY, null))
    : queryClient.prefetchQuery({ queryKey: USER_QUERY_KEY, queryFn: getQueryFn({ on401: 'returnNull' }) });

const app = <Root queryClient={queryClient} Router={BrowserRouter} />;

/**
 * Public pages arrive pre-rendered for a visitor in the default language (scripts/prerender.mjs
 * marks the root with `data-prerendered="<locale>"`). They are hydrated once the texts, the session
 * and the page's code are here, so the first client render is the HTML already on screen. Anyone
 * else (another language, a signed-in user) gets a fresh client render, which replaces the
 * pre-rendered HTML only when it is ready.
 */
async function start(): Promise<void> {
  const prerendered = container.dataset.prerendered;
  if (!prerendered) {
    createRoot(container).render(app);
    return;
  }
  await Promise.all([i18nReady, sessionReady, preloadPage(window.location.pathname)]);
  const visitor = !queryClient.getQueryData(USER_QUERY_KEY);
  // As a transition, hydration yields to the browser every few milliseconds (a default-priority
  // hydration runs as one long task): the page stays responsive on a slow phone meanwhile.
  if (visitor && currentLocale() === prerendered && !window.location.search) startTransition(() => void hydrateRoot(container, app));
  else createRoot(container).render(app);
}

void start();
