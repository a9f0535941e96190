import type { Plugin } from 'vite';

/** @param routes path (as in App.tsx) → page module, relative to the web root */
export function routePreload(routes: Record<string, string>): Plugin;
