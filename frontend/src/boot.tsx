// The app itself: main.tsx loads it once the page has painted.
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { currentLocale, detectInitialLocale, startI18n } from './i18n';
import { USER_QUERY_KEY } from './auth/AuthProvider';
import { getQueryFn } from './lib/api';
import { endHydration, hydrated, startHydration } from './lib/hydrateLater';
import { preloadPage } from './lib/lazyPage';
import { queryClient } from './lib/queryClient';
import { Root } from './Root';

const container = document.getElementById('root')!;

const app = <Root queryClient={queryClient} Router={BrowserRouter} />;

/**
 * Each step below runs in a task of its own. A phone runs this code several times slower than a
 * desktop: every task longer than 50 ms there holds up a tap (Lighthouse counts it as blocking
 * time), and Preact hydrates in one go, so what can be done before it is done in separate tasks:
 * evaluating the app's code (the task this module runs in), reading the stored language, starting
 * i18next, the session, then the render.
 */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * The session: the gateway marks the page `data-session="none"` when the request carried no
 * session cookie, so a visitor's page asks nothing (a 401 would be logged as an error). Otherwise
 * it is asked for while the locale chunk downloads, rather than after it; this is the page's only
 * GET /api/user, as AuthProvider adopts the answer instead of asking again.
 */
function readSession(): Promise<unknown> {
  return container.dataset.session === 'none'
    ? Promise.resolve(queryClient.setQueryData(USER_QUERY_KEY, null))
    : queryClient.prefetchQuery({ queryKey: USER_QUERY_KEY, queryFn: getQueryFn({ on401: 'returnNull' }) });
}

/**
 * Public pages arrive pre-rendered for a visitor in the language the request named (`?lng=`, the
 * remembered choice's cookie, or the default), in the view its query string names (scripts/
 * prerender.mjs marks the root with `data-prerendered="<locale>"`; the gateway picks the document,
 * services/gateway/src/http/spa-documents.ts). They are hydrated once the texts, the session
 * and the page's code are here, so the first client render is the HTML already on screen; the
 * numbers they show come formatted with the page (lib/format.ts), so hydrating builds no Intl
 * format. Anyone else (another language, a signed-in user) gets a fresh client render once the
 * same are here, which replaces the pre-rendered HTML: the root is emptied first, as Preact's render
 * (react-dom is preact/compat, vite.config.ts) would otherwise reuse the foreign nodes and keep
 * their attributes.
 *
 * A signed-in page arrives as its shell (`data-shell`: header, bottom bar, skeleton), which stays
 * on screen until the same are here and is then replaced by the client render, whose first frame
 * is the same shell (RequireAuth) or already the page.
 */
async function start(): Promise<void> {
  const prerendered = container.dataset.prerendered;
  const shell = container.dataset.shell !== undefined;
  if (!prerendered && !shell) {
    void startI18n();
    void readSession();
    createRoot(container).render(app);
    container.setAttribute('data-app', 'ready');
    return;
  }
  await nextTask();
  const locale = detectInitialLocale();
  await nextTask();
  const texts = startI18n(locale);
  await nextTask();
  const session = readSession();
  // Loading the texts runs i18next's callbacks in the task the locale chunk arrives in; the render
  // comes in a task after it.
  await Promise.all([texts, session, preloadPage(window.location.pathname)]);
  await nextTask();
  const visitor = !queryClient.getQueryData(USER_QUERY_KEY);
  if (prerendered && visitor && currentLocale() === prerendered) {
    // The parts of the page marked HydrateLater are hydrated in the tasks after this one; #root is
    // marked once the last one is (data-hydrated: the whole page is the app's).
    // data-app="ready" on every path: the page's controls are the app's from then on (a form sent
    // before it is sent by the browser; browser tests wait for it before typing).
    void hydrated.then(() => {
      container.setAttribute('data-hydrated', '');
      container.setAttribute('data-app', 'ready');
    });
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
  container.setAttribute('data-app', 'ready');
}

void start();
