// serve.mjs: a static server for the repository root (no dependencies).
//   node scripts/serve.mjs [--csp] [--watch]     PORT=8080 by default
// /web/ is the article, /web/embed/ the embedding examples; .wasm goes out
// as application/wasm. --csp adds the strict Content-Security-Policy that
// the figures must work under. --watch (npm start) rebuilds dist/ from the
// sources whenever one changes, so a reload shows the edit.
import { watch } from 'node:fs';
import { createServer } from 'node:http';
import { createSecureServer } from 'node:http2';
import { gzipSync } from 'node:zlib';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

export const STRICT_CSP =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'";

/** The content type of each kind of file served. */
export const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.json': 'application/json', '.wasm': 'application/wasm', '.woff2': 'font/woff2',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.md': 'text/plain; charset=utf-8', '.txt': 'text/plain; charset=utf-8',
};

const ROOT = fileURLToPath(new URL('..', import.meta.url));

// what gzip helps (woff2 and png are compressed already)
const COMPRESSIBLE = /^(text\/|application\/(json|wasm)|image\/svg)/;

/**
 * Start serving `root`; resolves to the node:http server once listening.
 * `gzip`: compress what the client accepts (level 9), as a blog's host would.
 * `onSent(path, bytes)`: told the body bytes of every response (sizes).
 * `cors`: send Access-Control-Allow-Origin: * (as a CDN must, for pages on
 * other origins to use what it serves): true, or a test of the path.
 * For the browser tests: `routes` (a Map of path -> { body, type }) answers
 * those paths first; `html(text)` rewrites every HTML page served;
 * `onError(path, status)` is told each answer of 400 or more.
 * `tls` ({key, cert}): HTTPS with HTTP/2, as most blog hosts serve (one
 * connection, every request at once; HTTP/1.1 for clients without it).
 */
export function serve({ port = 8080, csp = false, root = ROOT, host = '127.0.0.1', gzip = false, onSent, cors = false, routes, html, onError, tls } = {}) {
  const handle = async (req, res) => {
    const headers = csp ? { 'content-security-policy': STRICT_CSP } : {};
    try {
      let path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
      if (cors === true || (typeof cors === 'function' && cors(path))) headers['access-control-allow-origin'] = '*';
      if (path === '/') {
        res.writeHead(302, { location: '/web/' }).end();
        return;
      }
      const route = routes?.get(path);
      let file = normalize(join(root, path));
      if (!route && !file.startsWith(root)) throw Object.assign(new Error('outside'), { code: 'ENOENT' });
      if (!route && (await stat(file)).isDirectory()) file = join(file, 'index.html');
      let body = route ? Buffer.from(route.body) : await readFile(file);
      const type = route?.type ?? TYPES[extname(file)] ?? 'application/octet-stream';
      if (html && type.startsWith('text/html')) body = Buffer.from(html(body.toString()));
      if (gzip && COMPRESSIBLE.test(type) && /\bgzip\b/.test(req.headers['accept-encoding'] ?? '')) {
        body = gzipSync(body, { level: 9 });
        headers['content-encoding'] = 'gzip';
      }
      res.writeHead(200, { ...headers, 'content-type': type, 'cache-control': 'no-cache' });
      onSent?.(path, body.length);
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch (err) {
      const code = err.code === 'ENOENT' || err.code === 'ENOTDIR' ? 404 : 500;
      onError?.(req.url, code);
      res.writeHead(code, { ...headers, 'content-type': 'text/plain' }).end(code === 404 ? 'not found' : 'error');
    }
  };
  const server = tls ? createSecureServer({ ...tls, allowHTTP1: true }, handle) : createServer(handle);
  return new Promise((resolve, reject) => {
    server.once('error', reject); // (a port in use: the caller says so)
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const port = Number(process.env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`attention-wasm: PORT is a port number from 0 to 65535, not "${process.env.PORT}"`);
    process.exit(1);
  }
  const csp = process.argv.includes('--csp');
  if (process.argv.includes('--watch')) {
    const { bundle } = await import('./bundle.mjs');
    await bundle({ watch: true });
    // the article's served page (scripts/article.mjs), again whenever its source changes
    const { writeArticle } = await import('./article.mjs');
    watch(fileURLToPath(new URL('../web/article.html', import.meta.url)), () => writeArticle().catch((err) => console.error(err.message)));
    console.log('attention-wasm: watching web/ (a reload shows an edit; `npm run build` makes dist/ as bloggers get it)');
  }
  const server = await serve({ port, csp }).catch((err) => {
    console.error(err.code === 'EADDRINUSE'
      ? `attention-wasm: port ${port} is in use (another npm start?); PORT=${port + 1} npm start serves on another`
      : `attention-wasm: cannot serve on port ${port}: ${err.message}`);
    process.exit(1);
  });
  const { port: p } = server.address();
  console.log(`attention-wasm: http://localhost:${p}/web/${csp ? '  (strict CSP)' : ''}`);
}
