// A stand-in for the orchestrator while it is not at hand: serves web/dist with SPA fallback, the
// public pages' prerendered HTML (dist/prerendered/<route>.html),
// GET /api/public-config, and a plain chatbot page for the frame. Not used by the real test run.
//   node lighthouse/serve-dist.mjs [port] [dist dir]   (default 4173, ../../web/dist)
// A second argument serves another build (e.g. a copy of an older dist) to compare two builds.
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const port = Number(process.argv[2] ?? process.env.PORT ?? 4173);
const dist = process.argv[3]
  ? resolve(process.argv[3]) + sep
  : fileURLToPath(new URL('../../web/dist/', import.meta.url));

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.pdf': 'application/pdf',
  '.xml': 'application/xml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.json': 'application/json',
};

const CHATBOT_PAGE = `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><title>Assistente EXA</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font-family:system-ui,sans-serif;margin:16px"><main><h1 style="font-size:1.2rem">Olá! Sou a assistente virtual da EXA.</h1>
<p>Como posso ajudar?</p></main></body></html>`;

function send(res, status, type, body) {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-cache' });
  res.end(body);
}

createServer((req, res) => {
  const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
  if (url.pathname === '/api/public-config') {
    const origin = `http://${req.headers.host}`;
    return send(
      res,
      200,
      'application/json',
      JSON.stringify({
        chatbotUrl: `${origin}/sandbox/chatbot?p=hero`,
        chatbotAvatarUrl: `${origin}/img/chatbot-avatar.svg`,
        sandbox: true,
        smsInboxUrl: `${origin}/sandbox/sms`,
      }),
    );
  }
  if (url.pathname === '/sandbox/chatbot') return send(res, 200, 'text/html; charset=utf-8', CHATBOT_PAGE);

  // A public page's prerendered HTML (web/scripts/prerender.mjs), as the orchestrator is to answer it.
  const route = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
  const prerendered = join(dist, route === '/' ? 'prerendered/index.html' : `prerendered${route}.html`);
  if (/^\/[a-z0-9/-]*$/.test(route) && prerendered.startsWith(dist) && existsSync(prerendered)) {
    const gzip = /\bgzip\b/.test(req.headers['accept-encoding'] ?? '') && existsSync(`${prerendered}.gz`);
    res.writeHead(200, {
      'content-type': TYPES['.html'],
      'cache-control': 'no-cache',
      ...(gzip ? { 'content-encoding': 'gzip', vary: 'accept-encoding' } : {}),
    });
    return createReadStream(gzip ? `${prerendered}.gz` : prerendered).pipe(res);
  }
  const relative = normalize(decodeURIComponent(url.pathname)).replace(/^(\.\.[/\\])+/, '');
  const file = join(dist, relative);
  if (file.startsWith(dist) && existsSync(file) && statSync(file).isFile()) {
    const headers = { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' };
    // Hashed bundles never change; everything else is revalidated.
    headers['cache-control'] = relative.startsWith('/static/') ? 'public, max-age=31536000, immutable' : 'no-cache';
    // Like the orchestrator: send the build's precompressed twin when the browser takes gzip.
    const gzip = `${file}.gz`;
    if (/\bgzip\b/.test(req.headers['accept-encoding'] ?? '') && existsSync(gzip)) {
      res.writeHead(200, { ...headers, 'content-encoding': 'gzip', vary: 'accept-encoding' });
      return createReadStream(gzip).pipe(res);
    }
    res.writeHead(200, headers);
    return createReadStream(file).pipe(res);
  }
  if (url.pathname.startsWith('/api/')) return send(res, 404, 'application/json', '{"message":"not found"}');
  const gzipped = /\bgzip\b/.test(req.headers['accept-encoding'] ?? '') && existsSync(join(dist, 'index.html.gz'));
  res.writeHead(200, {
    'content-type': TYPES['.html'],
    'cache-control': 'no-cache',
    ...(gzipped ? { 'content-encoding': 'gzip', vary: 'accept-encoding' } : {}),
  });
  createReadStream(join(dist, gzipped ? 'index.html.gz' : 'index.html')).pipe(res);
}).listen(port, '127.0.0.1', () => console.log(`serving ${dist} on http://127.0.0.1:${port}`));
