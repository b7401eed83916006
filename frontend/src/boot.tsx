// The app itself: main.tsx loads it once the page has painted.
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { currentLocale, i18nReady } from './i18n';
import { USER_QUERY_KEY } from './auth/AuthProvider';
import { getQueryFn } from './lib/api';
import { prepareNumberFormat } from './lib/format';
import { endHydration, startHydration } from './lib/hydrateLater';
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
 * The rest of the work in a task of its own. A phone runs this code several times slower than a
 * desktop: every task longer than 50 ms there holds up a tap (Lighthouse counts it as blocking
 * time), and Preact hydrates in one go, so what can be done before it is done in separate tasks.
 */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Public pages arrive pre-rendered for a visitor in the default language (scripts/prerender.mjs
 * marks the root with `data-prerendered="<locale>"`). They are hydrated once the texts, the session
 * and the page's code are here, so the first client render is the HTML already on screen. Anyone
 * else (another language, a signed-in user) gets a fresh client render once the same are here,
 * which replaces the pre-rendered HTML: the root is emptied first, as Preact's render (react-dom is
 * preact/compat, vite.config.ts) would otherwise reuse the foreign nodes and keep their attributes.
 */
async function start(): Promise<void> {
  const prerendered = container.dataset.prerendered;
  if (!prerendered) {
    createRoot(container).render(app);
    return;
  }
  await Promise.all([i18nReady, sessionReady, preloadPage(window.location.pathname)]);
  // Loading the texts ran i18next's callbacks in this task; the first Intl number format of a page
  // loads the locale's data, a long step of its own on a phone. Then the render.
  await nextTask();
  prepareNumberFormat(currentLocale());
  await nextTask();
  const visitor = !queryClient.getQueryData(USER_QUERY_KEY);
  if (visitor && currentLocale() === prerendered && !window.location.search) {
    // The parts of the page marked HydrateLater are hydrated in the tasks after this one.
    startHydration();
    try {
      hydrateRoot(container, app);
    } finally {
      endHydration();
    }
    return;
  }
  container.replaceChildren();
  createRoot(container).render(app);
}

void start();
