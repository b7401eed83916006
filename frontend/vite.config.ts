import { fileURLToPath } from 'node:url';
import { defineConfig, type ProxyOptions } from 'vite';
import react from '@vitejs/plugin-react';
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

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react(), pureContracts, VitePWA(pwaOptions)],
  resolve: {
    alias: {
      '@esim/contracts': fileURLToPath(new URL('../libs/contracts/src/index.ts', import.meta.url)),
    },
  },
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
});
