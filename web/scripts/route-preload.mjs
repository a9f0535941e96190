// Vite build plugin: every page is a lazily loaded chunk (App.tsx), so a first visit would fetch
// index.html, then the main bundle, and only when that has run the page's chunk and its imports:
// one more round trip before anything is painted (on Lighthouse's slow 4G, ~150 ms plus the
// transfer). This writes a small inline script into index.html that, for the public routes
// listed in vite.config.ts, starts those fetches at once (modulepreload, in parallel with the main
// bundle). Unlisted paths load as before.
import { resolve } from 'node:path';

/**
 * The files each route's page needs beside the entry: its chunk, the chunks it imports, their CSS.
 * @param {import('rolldown').OutputBundle} bundle the client build's output
 * @param {Record<string, string>} routes path (as in App.tsx) → page module, relative to `root`
 * @param {string} root the web root
 * @returns {Record<string, string[]>} path → file names, relative to the build's base
 */
export function routeFiles(bundle, routes, root) {
  const chunks = Object.values(bundle).filter((item) => item.type === 'chunk');
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const map = {};
  for (const [path, module] of Object.entries(routes)) {
    const wanted = resolve(root, module);
    const page = chunks.find((chunk) => chunk.facadeModuleId && resolve(chunk.facadeModuleId) === wanted);
    if (!page) throw new Error(`route-preload: no chunk for ${module} (${path}); is it still lazily imported?`);
    const files = new Set();
    const visit = (chunk) => {
      if (chunk.isEntry || files.has(chunk.fileName)) return;
      files.add(chunk.fileName);
      for (const css of chunk.viteMetadata?.importedCss ?? []) files.add(css);
      for (const name of chunk.imports) {
        const next = byFile.get(name);
        if (next) visit(next);
      }
    };
    visit(page);
    map[path] = [...files];
  }
  return map;
}

/** @param {Record<string, string>} routes path (as in App.tsx) → page module, relative to the web root */
export function routePreload(routes) {
  let root = process.cwd();
  let base = '/';
  return {
    name: 'exa-route-preload',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const bundle = ctx.bundle;
        if (!bundle) return html;
        const map = routeFiles(bundle, routes, root);
        const script =
          `(function(){var m=${JSON.stringify(map)};` +
          `var p=location.pathname.replace(/(.)\\/+$/,'$1'),f=m[p]||[];` +
          `for(var i=0;i<f.length;i++){var l=document.createElement('link'),c=/\\.css$/.test(f[i]);` +
          `l.rel=c?'stylesheet':'modulepreload';l.crossOrigin='';l.href=${JSON.stringify(base)}+f[i];document.head.appendChild(l)}})()`;
        // Before the entry's <script> and <link rel="stylesheet">: an inline script after a
        // stylesheet would wait for it to load.
        const at = html.indexOf('<script type="module"');
        if (at < 0) throw new Error('route-preload: no module script in index.html');
        return `${html.slice(0, at)}<script>${script}</script>\n    ${html.slice(at)}`;
      },
    },
  };
}
