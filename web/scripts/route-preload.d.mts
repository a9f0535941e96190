import type { Plugin } from 'vite';

/** The files each route's page needs beside the entry (its chunk, their imports, their CSS). */
export function routeFiles(bundle: object, routes: Record<string, string>, root: string): Record<string, string[]>;

/** @param routes path (as in App.tsx) → page module, relative to the web root */
export function routePreload(routes: Record<string, string>): Plugin;
