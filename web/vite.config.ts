import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { precompress } from './scripts/precompress.mjs';
import { routePreload } from './scripts/route-preload.mjs';

// The orchestrator serves the production build; in `vite dev` the API is proxied to it.
export default defineConfig({
  plugins: [
    react(),
    // The public pages' chunks start loading with the main bundle (scripts/route-preload.mjs).
    routePreload({
      '/': 'src/pages/Home.tsx',
      '/seguranca': 'src/pages/Security.tsx',
      '/faq': 'src/pages/Faq.tsx',
      '/cloud': 'src/pages/Cloud.tsx',
      '/gestao': 'src/pages/Management.tsx',
      '/contato': 'src/pages/Contact.tsx',
      '/seguranca/brisanet': 'src/pages/BrisanetLanding.tsx',
    }),
    precompress(),
  ],
  server: {
    proxy: { '/api': 'http://127.0.0.1:8080', '/healthz': 'http://127.0.0.1:8080' },
  },
  build: { outDir: 'dist', assetsDir: 'static', sourcemap: false },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test-setup.ts'],
  },
});
