import { fileURLToPath } from 'node:url';
import { defineConfig, type ProxyOptions } from 'vite';
import { preact } from '@preact/preset-vite';
import { VitePWA } from 'vite-plugin-pwa';
import { pwaOptions } from './pwa.config';

const api = 'http://localhost:3000';

/**
 * Dev and preview servers only: the SPA is served from :5173/:4173 but the gateway checks that a
 * state-changing /api request comes from its own origin (PUBLIC_URL, :3000 by default). Behind
 * this proxy the SPA *is* the gateway's front door, so the Origin header is rewritten to the
 * gateway's. In production the gateway serves the built SPA itself and nothing is rewritten.
 */
const asGatewayOrigin: ProxyOptions = {
  target: api,
  changeOrigin: false,
  configure(proxy) {
    proxy.on('proxyReq', (proxyReq) => {
      if (proxyReq.getHeader('origin')) proxyReq.setHeader('origin', new URL(api).origin);
    });
  },
};
const proxy: Record<string, ProxyOptions> = {
  '/api': asGatewayOrigin,
  '/webhooks': { target: api, changeOrigin: false },
  '/sandbox': asGatewayOrigin,
};

const contractsDir = fileURLToPath(new URL('../libs/contracts/src/', import.meta.url));

/**
 * The contracts library is pure declarations: a module whose exports the SPA does not use is left
 * out of the bundle (Rollup would otherwise keep every re-exported module of the index for its
 * possible side effects). So importing the catalogue does not drag the HTTP schemas and zod in.
 */
const pureContracts = {
  name: 'esim:pure-contracts',
  transform(code: string, id: string) {
    if (id.startsWith(contractsDir)) return { code, map: null, moduleSideEffects: false };
    return null;
  },
};

/**
 * The app is written against React's API (react, react-dom, react-router, TanStack Query,
 * react-i18next, Stripe's React bindings) and runs on Preact's compatibility layer: the preset
 * aliases react and react-dom to preact/compat, in the dev server and in both builds. React 19's
 * react-dom alone was about 60 KB of the landing page's 118 KB gzipped first load; with Preact
 * it is within the 90 KB budget (scripts/bundle-size.mjs, frontend/README.md "Bundle budget").
 * What Preact's compat layer does not have is not used: `use`, actions (useActionState,
 * useOptimistic, form actions), `<Context>` as a provider, and `ref` as a plain prop of a
 * function component (forwardRef is, e.g. ui/Button.tsx). Attributes that take "true"/"false" are
 * written as strings (spellCheck="false", focusable="false"): Preact leaves out an attribute whose
 * value is false where React writes "false".
 */
export default defineConfig(({ command }) => ({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [preact(), pureContracts, VitePWA(pwaOptions)],
  resolve: {
    alias: [
      { find: '@esim/contracts', replacement: fileURLToPath(new URL('../libs/contracts/src/index.ts', import.meta.url)) },
      // react-router's package exports only its development build, which checks and warns as it
      // routes (ENABLE_DEV_WARNINGS): on the landing page's first render that was a fifth of the
      // routing time on a throttled phone. Builds take the production build it ships beside it.
      ...(command === 'build' ? [{ find: /^react-router$/, replacement: fileURLToPath(new URL('../node_modules/react-router/dist/production/index.mjs', import.meta.url)) }] : []),
    ],
  },
  // The pre-renderer's bundle (vite build --ssr src/entry-server.tsx) carries its dependencies
  // instead of importing them from node_modules at run time, so that react-router and the rest
  // render with preact/compat there too: the markup hydration adopts comes from the same Preact.
  ssr: { noExternal: true },
  server: { port: 5173, proxy },
  preview: { port: 4173, proxy },
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    // The manifest lets scripts/bundle-size.mjs follow the entry's static imports exactly.
    manifest: true,
    sourcemap: false,
  },
}));
