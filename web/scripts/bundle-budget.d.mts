import type { Plugin } from 'vite';

/** Fails the build when the entry chunk's gzip size is over `entryGzipBytes`. */
export function bundleBudget(budget: { entryGzipBytes: number }): Plugin;
