// Vite build plugin: fails the build when the entry chunk (what every page loads first) grows past
// its budget in gzip bytes, as sent (web/scripts/precompress.mjs writes the same gzip level).
import { constants, gzipSync } from 'node:zlib';

/** @param {{ entryGzipBytes: number }} budget */
export function bundleBudget({ entryGzipBytes }) {
  return {
    name: 'exa-bundle-budget',
    apply: (_, env) => env.command === 'build' && !env.isSsrBuild,
    generateBundle(_, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk' || !chunk.isEntry) continue;
        const size = gzipSync(chunk.code, { level: constants.Z_BEST_COMPRESSION }).length;
        if (size > entryGzipBytes) {
          this.error(`${chunk.fileName} is ${size} bytes gzip, over its budget of ${entryGzipBytes}`);
        }
      }
    },
  };
}
