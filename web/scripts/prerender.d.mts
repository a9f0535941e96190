import type { Plugin } from 'vite';

/** The file a route's prerendered page is written to, relative to the build's directory. */
export function prerenderedFile(path: string): string;

/**
 * Prerenders `routes` (path → page module, relative to the web root) with `entry`'s
 * `renderPage` into dist/prerendered/.
 */
export function prerender(options: { entry: string; boot: string; routes: Record<string, string> }): Plugin;
