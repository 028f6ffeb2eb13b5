// server.js: the repository's static server for the three engines' tests: the probe
// (probes.js) first in every HTML page, made-up files a test serves (fake), and the
// HTTP errors it answered (a page's failed requests, in every engine alike).
import { serve, TYPES } from '../../../scripts/serve.mjs';
import { extname } from 'node:path';
import { PROBE_SCRIPT } from '../probes.js';

const PROBE = '/__tests/probe.js';

/** -> { origin, url(path), fake(path, body), failures: [string], close() } */
export async function serveTests({ csp = false, root } = {}) {
  const routes = new Map([[PROBE, { body: PROBE_SCRIPT, type: TYPES['.js'] }]]);
  const failures = [];
  const tag = `<script src="${PROBE}"></script>`;
  const html = (text) => (/<head[^>]*>/i.test(text) ? text.replace(/<head[^>]*>/i, (h) => h + tag) : tag + text);
  const server = await serve({ port: 0, csp, root, routes, html, onError: (path, code) => { if (path !== '/favicon.ico') failures.push(`HTTP ${code}: ${path}`); } });
  const origin = `http://127.0.0.1:${server.address().port}`;
  return {
    origin,
    failures,
    url: (path) => new URL(path, origin).href,
    /** Serve `body` at `path` (its type from its extension) until the server closes. */
    fake(path, body) { routes.set(new URL(path, origin).pathname, { body, type: TYPES[extname(new URL(path, origin).pathname)] ?? 'text/plain' }); },
    close: () => new Promise((r) => server.close(r)),
  };
}
