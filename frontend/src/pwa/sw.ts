/// <reference lib="webworker" />
/**
 * The service worker (built by vite-plugin-pwa from this file; docs/wallet.md, "Offline"). A
 * traveller may land abroad with no data and still has to install the eSIM they bought, so:
 * - the app's files are precached (the list is injected at build time), and a page opened without
 *   a connection gets the app shell;
 * - My eSIMs and the setup guide keep working: the last network answers of the wallet reads are
 *   kept and served only when the network cannot be reached, and the setup page's QR code comes
 *   from them; everything kept is forgotten when the session changes.
 * Every other request goes to the network untouched (provider pages, Stripe, the sandboxes).
 */
import { clientsClaim } from 'workbox-core';
import * as navigationPreload from 'workbox-navigation-preload';
import { cleanupOutdatedCaches, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import {
  buildVersion,
  changesSession,
  decodeDataUrl,
  isAnotherUser,
  isOfflineRead,
  lpaOfQrRequest,
  offlineShell,
  qrFromWallet,
} from './offlineApi';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<string | { url: string; revision: string | null }> };

const manifest = self.__WB_MANIFEST;
const SHELL_URL = '/index.html';
const SHELL_PREFIX = 'esim-shell-';
const SHELL_CACHE = `${SHELL_PREFIX}${buildVersion(manifest)}`;
const API_CACHE = 'esim-offline-api-v1';
const NOT_THE_APP = /^\/(api|webhooks|sandbox|health)(\/|$)/;

precacheAndRoute(manifest);
cleanupOutdatedCaches();
navigationPreload.enable();
// The first install takes over the open page at once, so its wallet reads are kept from the start.
// A new version waits for the old pages to close instead (they may still need the old chunks).
clientsClaim();

/** The shell of this build, fetched as a visitor (the same document for everyone) and kept per build. */
self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const res = await fetch(SHELL_URL, { credentials: 'omit', cache: 'no-store' });
      if (!res.ok) throw new Error(`the app shell answered ${res.status}`);
      const html = offlineShell(await res.text());
      await (
        await caches.open(SHELL_CACHE)
      ).put(SHELL_URL, new Response(html, { headers: { 'Content-Type': 'text/html; charset=utf-8' } }));
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) if (name.startsWith(SHELL_PREFIX) && name !== SHELL_CACHE) await caches.delete(name);
    })(),
  );
});

/** Pages: always the network (pre-rendered pages, fresh deploys); the shell only when it cannot be reached. */
registerRoute(
  new NavigationRoute(
    async ({ request, event }) => {
      try {
        const preloaded = (await (event as FetchEvent).preloadResponse) as Response | undefined;
        return preloaded ?? (await fetch(request));
      } catch (err) {
        const shell = await caches.match(SHELL_URL, { cacheName: SHELL_CACHE });
        if (shell) return shell;
        throw err;
      }
    },
    { denylist: [NOT_THE_APP] },
  ),
);

const keyOf = (url: URL) => `${url.origin}${url.pathname}`;
/**
 * Bumped each time what was kept is forgotten (signing out, another user): a wallet read already on
 * its way then still answers its page but is not kept, so nothing of the previous session lands in
 * the cache after it was emptied (a line's usage read racing the sign-out did).
 */
let sessionEpoch = 0;
const forgetUserData = () => {
  sessionEpoch += 1;
  return caches.delete(API_CACHE);
};

async function keptJson(cache: Cache, url: string): Promise<unknown> {
  const kept = await cache.match(url, { ignoreVary: true });
  return kept ? kept.json().catch(() => null) : null;
}

/** The wallet reads: the network's answer (kept when OK), or the kept one when the network fails. */
registerRoute(
  ({ url, request }) => url.origin === self.location.origin && request.method === 'GET' && isOfflineRead(url.pathname),
  async ({ url, request }) => {
    const cache = await caches.open(API_CACHE);
    let epoch = sessionEpoch;
    let response: Response;
    try {
      response = await fetch(request);
    } catch (err) {
      const kept = await cache.match(keyOf(url), { ignoreVary: true });
      if (kept) return kept;
      throw err;
    }
    if (response.status === 401) {
      await forgetUserData();
    } else if (response.ok) {
      if (url.pathname === '/api/user') {
        const fresh: unknown = await response
          .clone()
          .json()
          .catch(() => null);
        if (isAnotherUser(await keptJson(cache, keyOf(url)), fresh)) {
          await forgetUserData();
          epoch = sessionEpoch; // this answer is the new user's own
        }
      }
      if (epoch === sessionEpoch) await (await caches.open(API_CACHE)).put(keyOf(url), response.clone());
    }
    return response;
  },
);

/** Signing in or out (and the like): what was kept belonged to the previous session. */
for (const method of ['POST', 'DELETE'] as const) {
  registerRoute(
    ({ url }) => url.origin === self.location.origin && changesSession(method, url.pathname),
    async ({ request }) => {
      const response = await fetch(request);
      if (response.ok) await forgetUserData();
      return response;
    },
    method,
  );
}

/** The setup page draws the QR code with the server; offline it comes from the kept wallet. */
registerRoute(
  ({ url }) => url.origin === self.location.origin && url.pathname === '/api/generate-qr',
  async ({ request }) => {
    const body = await request.clone().text();
    try {
      return await fetch(request);
    } catch (err) {
      const lpa = lpaOfQrRequest(body);
      const cache = await caches.open(API_CACHE);
      const wallet = await Promise.all(
        ['/api/esim-lines', '/api/esim-purchases'].map((p) => keptJson(cache, `${self.location.origin}${p}`)),
      );
      const image = lpa ? decodeDataUrl(qrFromWallet(lpa, wallet) ?? '') : null;
      if (image) return new Response(image.bytes, { headers: { 'Content-Type': image.type } });
      throw err;
    }
  },
  'POST',
);

/**
 * Web Push (docs/wallet.md, "Web Push"): a low-data alert, `{ title, body, why, url, tag }` from
 * services/notifications/src/push/push-sender.ts. The last line says why it came and where to
 * change it; a tap opens `url` in an open window of the app, or a new one.
 */
self.addEventListener('push', (event) => {
  const message = parsePush(event.data);
  if (!message) return;
  event.waitUntil(
    self.registration.showNotification(message.title, {
      body: [message.body, message.why].filter(Boolean).join('\n'),
      tag: message.tag,
      icon: '/icons/icon-192.png',
      badge: '/icons/icon-192.png',
      data: { url: message.url },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = new URL(String((event.notification.data as { url?: string } | null)?.url ?? '/'), self.location.origin);
  if (target.origin !== self.location.origin) return;
  event.waitUntil(
    (async () => {
      for (const client of await self.clients.matchAll({ type: 'window', includeUncontrolled: true })) {
        if (new URL(client.url).origin === target.origin && 'navigate' in client) {
          await (client as WindowClient).focus();
          await (client as WindowClient).navigate(target.href);
          return;
        }
      }
      await self.clients.openWindow(target.href);
    })(),
  );
});

function parsePush(data: PushMessageData | null): { title: string; body: string; why: string; url: string; tag?: string } | null {
  try {
    const m = data?.json() as { title?: unknown; body?: unknown; why?: unknown; url?: unknown; tag?: unknown } | undefined;
    if (!m || typeof m.title !== 'string') return null;
    return {
      title: m.title,
      body: typeof m.body === 'string' ? m.body : '',
      why: typeof m.why === 'string' ? m.why : '',
      url: typeof m.url === 'string' ? m.url : '/',
      tag: typeof m.tag === 'string' ? m.tag : undefined,
    };
  } catch {
    return null;
  }
}
