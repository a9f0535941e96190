import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { bundleBudget } from './scripts/bundle-budget.mjs';
import { precompress } from './scripts/precompress.mjs';
import { prerender } from './scripts/prerender.mjs';
import { routePreload } from './scripts/route-preload.mjs';

// The public pages: prerendered at build time and hydrated (scripts/prerender.mjs, docs/site.md).
// The shell's inline script also starts their chunks with the entry when one is served the
// client-rendered way (scripts/route-preload.mjs).
const PUBLIC_PAGES = {
  '/': 'src/pages/Home.tsx',
  '/seguranca': 'src/pages/Security.tsx',
  '/faq': 'src/pages/Faq.tsx',
  '/cloud': 'src/pages/Cloud.tsx',
  '/gestao': 'src/pages/Management.tsx',
  '/contato': 'src/pages/Contact.tsx',
  '/seguranca/brisanet': 'src/pages/BrisanetLanding.tsx',
};

// The orchestrator serves the production build; in `vite dev` the API is proxied to it.
export default defineConfig({
  plugins: [
    react(),
    routePreload(PUBLIC_PAGES),
    prerender({ entry: 'src/entry-server.tsx', boot: 'src/boot.ts', routes: PUBLIC_PAGES }),
    // Issue 25: the entry chunk of `/` at most 70 kB gzip.
    bundleBudget({ entryGzipBytes: 70_000 }),
    precompress(),
  ],
  // The prerendered footer's year (components/Footer.tsx).
  define: { __BUILD_YEAR__: JSON.stringify(new Date().getFullYear()) },
  server: {
    proxy: { '/api': 'http://127.0.0.1:8080', '/healthz': 'http://127.0.0.1:8080' },
  },
  build: {
    outDir: 'dist',
    assetsDir: 'static',
    sourcemap: false,
    rolldownOptions: {
      // The shell's entry (src/main.tsx, through index.html) and the prerendered pages' (src/boot.ts).
      input: { index: 'index.html', boot: 'src/boot.ts' },
      output: {
        // React and React DOM in a chunk of their own: every page needs them, and they change far
        // less often than the app, so a deploy leaves them cached.
        codeSplitting: {
          groups: [{ name: 'react', test: /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/ }],
        },
      },
    },
  },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test-setup.ts'],
    // A page test renders a whole route in jsdom; on a loaded 2-core machine that alone took
    // more than the default 5 s. A budget for the work, not a wait on anything.
    testTimeout: 20_000,
  },
});
