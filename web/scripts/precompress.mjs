// Vite build plugin: writes a .gz beside every text file of the build, so the orchestrator's
// static service can send it as is (tower-http ServeDir::precompressed_gzip) without
// compressing at request time.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { constants, gzipSync } from 'node:zlib';

const COMPRESSIBLE = new Set(['.js', '.css', '.html', '.svg', '.xml', '.txt', '.json']);
// Below this size the gzip header costs more than it saves.
const MIN_BYTES = 1024;

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else yield path;
  }
}

export function precompress() {
  let outDir = 'dist';
  return {
    name: 'exa-precompress',
    apply: (_, env) => env.command === 'build' && !env.isSsrBuild,
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    // After the prerendered pages are written (scripts/prerender.mjs).
    closeBundle: {
      order: 'post',
      sequential: true,
      handler() {
        for (const path of files(outDir)) {
          if (!COMPRESSIBLE.has(extname(path))) continue;
          const body = readFileSync(path);
          if (body.length < MIN_BYTES) continue;
          writeFileSync(`${path}.gz`, gzipSync(body, { level: constants.Z_BEST_COMPRESSION }));
        }
      },
    },
  };
}
