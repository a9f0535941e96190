// Until the orchestrator answers the public routes with web/dist/prerendered/<route>.html
// (docs/site.md, "Prerendered pages"), this stands in front of a running portal and does just
// that, with the portal's own security headers; every other request goes to the portal as is.
// For browser tests and Lighthouse of the prerendered build against the real portal.
//   node lighthouse/prerender-proxy.mjs <port> <portal URL> [dist dir]
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const port = Number(process.argv[2] ?? 28280);
const portal = new URL(process.argv[3] ?? 'http://127.0.0.1:8080');
const dist = process.argv[4] ? resolve(process.argv[4]) + sep : fileURLToPath(new URL('../../web/dist/', import.meta.url));

/** The build's file for a route (web/scripts/prerender.mjs, prerenderedFile), if there is one. */
export function prerenderedPage(dir, pathname) {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (!/^\/[a-z0-9/-]*$/.test(path) || path.includes('//')) return null;
  const file = join(dir, path === '/' ? 'prerendered/index.html' : `prerendered${path}.html`);
  return file.startsWith(dir) && existsSync(file) && statSync(file).isFile() ? file : null;
}

const SECURITY = ['content-security-policy', 'x-content-type-options', 'referrer-policy', 'permissions-policy'];

createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const file = req.method === 'GET' || req.method === 'HEAD' ? prerenderedPage(dist, url.pathname) : null;
  const forward = (onResponse) => {
    const upstream = request(
      { host: portal.hostname, port: portal.port, method: req.method, path: req.url, headers: req.headers },
      onResponse,
    );
    upstream.on('error', () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  };
  if (!file) {
    return forward((upstream) => {
      res.writeHead(upstream.statusCode ?? 502, upstream.headers);
      upstream.pipe(res);
    });
  }
  // The portal's answer for the same path gives the headers (CSP and the rest); its body is dropped.
  forward((upstream) => {
    upstream.resume();
    const headers = { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' };
    for (const name of SECURITY) if (upstream.headers[name]) headers[name] = upstream.headers[name];
    const gzip = /\bgzip\b/.test(req.headers['accept-encoding'] ?? '') && existsSync(`${file}.gz`);
    if (gzip) Object.assign(headers, { 'content-encoding': 'gzip', vary: 'accept-encoding' });
    res.writeHead(200, headers);
    if (req.method === 'HEAD') return res.end();
    createReadStream(gzip ? `${file}.gz` : file).pipe(res);
  });
}).listen(port, '127.0.0.1', () => console.log(`prerendered pages of ${dist} in front of ${portal.origin} on :${port}`));
