import type { VitePWAOptions } from 'vite-plugin-pwa';
import { BRAND_NAME } from './src/brand';

/**
 * The installable app (vite-plugin-pwa, used by vite.config.ts): the web app manifest, the
 * service worker built from src/pwa/sw.ts with the list of files to precache injected, and a
 * deferred `/registerSW.js` in index.html that registers it once the page has loaded (it delays
 * neither the first paint nor the landing page's scripts). docs/wallet.md, "Offline".
 */
export const pwaOptions: Partial<VitePWAOptions> = {
  strategies: 'injectManifest',
  srcDir: 'src/pwa',
  filename: 'sw.ts',
  injectRegister: 'script-defer',
  // The browser fetches the icons when installing; the offline app does not need them.
  includeManifestIcons: false,
  manifest: {
    id: '/',
    name: BRAND_NAME,
    short_name: BRAND_NAME,
    // The default language's words, as in index.html's description.
    description: 'Complete missões rápidas, acumule megabytes e troque por dados de eSIM em 180+ países.',
    lang: 'pt',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    orientation: 'portrait',
    background_color: '#ffffff',
    theme_color: '#4c3bcf',
    icons: [
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
    shortcuts: [
      {
        name: 'Minhas eSIMs',
        short_name: 'eSIMs',
        url: '/esims',
        icons: [{ src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' }],
      },
    ],
  },
  injectManifest: {
    // The app's code, styles and texts; not the HTML (the shell is kept by the worker itself, as
    // the gateway serves it), nor the icons (the browser fetches them when installing).
    globPatterns: ['**/*.{js,css,svg,webmanifest}'],
    globIgnores: ['**/*.html', 'prerendered/**', 'icons/**'],
    // Hashed names never change content: no revision query needed.
    dontCacheBustURLsMatching: /^assets\//,
  },
};
