// Vite build plugin: prerenders the public pages into HTML files, which React then hydrates
// (src/main.tsx). After the client build it builds src/entry-server.tsx for Node, renders each
// route with react-dom/static (every lazily loaded page awaited), and writes
// dist/prerendered/<route>.html (`/` → index.html, `/seguranca/brisanet` → seguranca/brisanet.html):
// the shell dist/index.html with
//   - the page's markup in <div id="root" data-prerendered="<route>">,
//   - its title, description, robots, canonical and Open Graph tags (usePageMeta's),
//   - the entry's stylesheet inlined in a <style> (the first paint waits for no request; the CSP
//     allows inline styles), and no inline script (the CSP hashes only dist/index.html's),
//   - src/boot.ts as its only script, and in `data-modules` on the root the app's entry, its
//     imports and the page's chunks: boot.ts fetches them once the page is painted (why: there).
// dist/index.html itself stays the empty shell for every other route. The server answers a
// route with its prerendered file when there is one (docs/site.md, "Prerendered pages").
import react from '@vitejs/plugin-react';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'vite';
import { routeFiles } from './route-preload.mjs';

const escapeHtml = (text) =>
  String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The file a route's page is written to, relative to the build's directory. */
export function prerenderedFile(path) {
  return path === '/' ? 'prerendered/index.html' : `prerendered${path}.html`;
}

/**
 * @param {{ entry: string, boot: string, routes: Record<string, string> }} options the server
 *   entry, the prerendered pages' client entry, and the routes to prerender (path → page module;
 *   all relative to the web root)
 */
export function prerender({ entry, boot, routes }) {
  /** @type {import('vite').ResolvedConfig} */
  let config;
  let files = {};
  let bootFile = '';
  return {
    name: 'exa-prerender',
    apply: (_, env) => env.command === 'build' && !env.isSsrBuild,
    configResolved(resolved) {
      config = resolved;
    },
    generateBundle(_, bundle) {
      files = routeFiles(bundle, routes, config.root);
      const wanted = resolve(config.root, boot);
      const chunk = Object.values(bundle).find(
        (item) => item.type === 'chunk' && item.isEntry && item.facadeModuleId && resolve(item.facadeModuleId) === wanted,
      );
      if (!chunk) throw new Error(`prerender: no entry chunk for ${boot}`);
      if (chunk.imports.length > 0) throw new Error(`prerender: ${boot} must import nothing (${chunk.imports})`);
      bootFile = chunk.fileName;
    },
    closeBundle: {
      sequential: true,
      async handler() {
        const outDir = resolve(config.root, config.build.outDir);
        const serverDir = resolve(config.root, 'node_modules/.cache/exa-prerender');
        await build({
          configFile: false,
          root: config.root,
          mode: config.mode,
          logLevel: 'warn',
          define: config.define,
          plugins: [react()],
          build: { ssr: entry, outDir: serverDir, emptyOutDir: true, copyPublicDir: false, minify: false },
        });
        // No cache-busting query: the page chunks import the entry by its plain URL, and a second
        // instance of it would hold a second PageMetaCollector context.
        const server = await import(pathToFileURL(join(serverDir, 'entry-server.js')).href);
        const shell = readFileSync(join(outDir, 'index.html'), 'utf8');
        const base = config.base;
        for (const path of Object.keys(routes)) {
          const { html, head } = await server.renderPage(path);
          const page = pageHtml(shell, { path, html, head, preload: files[path] ?? [], outDir, base, bootFile });
          const target = join(outDir, prerenderedFile(path));
          mkdirSync(dirname(target), { recursive: true });
          writeFileSync(target, page);
        }
        rmSync(serverDir, { recursive: true, force: true });
        config.logger.info(`prerendered ${Object.keys(routes).length} pages into ${config.build.outDir}/prerendered/`);
      },
    },
  };
}

function pageHtml(shell, { path, html, head, preload, outDir, base, bootFile }) {
  let page = shell;
  // The shell's inline script (route-preload.mjs) is not needed: the page lists its own chunks.
  page = page.replace(/\s*<script>[\s\S]*?<\/script>/g, '');
  // The shell's generic title and tags give way to the page's.
  page = page.replace(/\s*<title>[\s\S]*?<\/title>/, '');
  page = page.replace(/\s*<meta (name="description"|property="og:[^"]*")[^>]*>/g, '');
  const tags = [
    `<title>${escapeHtml(head.title)}</title>`,
    ...head.meta.map(([attribute, key, content]) => `<meta ${attribute}="${key}" content="${escapeHtml(content)}" />`),
    `<link rel="canonical" href="${escapeHtml(head.canonical)}" />`,
  ];
  page = page.replace('</head>', `  ${tags.join('\n    ')}\n  </head>`);
  // The stylesheet, inlined.
  page = page.replace(/<link rel="stylesheet"[^>]*href="([^"]+)"[^>]*>/g, (_, href) => {
    const css = readFileSync(join(outDir, href.slice(base.length)), 'utf8');
    return `<style>${css.replace(/<\/style/gi, '<\\/style')}</style>`;
  });
  if (/<link rel="stylesheet"/.test(page)) throw new Error(`prerender: ${path} kept a stylesheet link`);
  // The app's entry and its imports (Vite's modulepreloads), then the page's chunks (the CSS of a
  // public page is in the entry's, inlined above): for boot.ts to fetch after the first paint.
  const entry = page.match(/\s*<script type="module"[^>]*src="([^"]+)"[^>]*><\/script>/);
  if (!entry) throw new Error('prerender: no module script in index.html');
  const modules = [entry[1]];
  page = page.replace(entry[0], `\n    <script type="module" crossorigin src="${base}${bootFile}"></script>`);
  page = page.replace(/\s*<link rel="modulepreload"[^>]*href="([^"]+)"[^>]*>/g, (_, href) => {
    modules.push(href);
    return '';
  });
  for (const file of preload) {
    if (file.endsWith('.js') && !modules.includes(`${base}${file}`)) modules.push(`${base}${file}`);
  }
  // React's own preloads (images it saw in the markup) come first in its output: into the head.
  const hoisted = html.match(/^(<link [^>]*\/>)+/)?.[0] ?? '';
  if (hoisted) page = page.replace('</head>', `  ${hoisted.replace(/\/>/g, '>')}\n  </head>`);
  html = html.slice(hoisted.length);
  const root = '<div id="root"></div>';
  if (!page.includes(root)) throw new Error('prerender: no empty <div id="root"> in index.html');
  const attributes = `data-prerendered="${escapeHtml(path)}" data-modules="${escapeHtml(modules.join(' '))}"`;
  return page.replace(root, `<div id="root" ${attributes}>${html}</div>`);
}
