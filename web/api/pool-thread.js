// pool-thread.js: a pool's worker in a browser (or a browser bundle): a
// module Web Worker running pool-worker.js. package.json "imports":
// "#pool-thread" everywhere but Node, which gets pool-thread.node.js
// (worker_threads). Nothing here names a node: module.
//
// A page can start a worker only from its own origin: from another one (a
// CDN), the worker is a same-origin blob: module that imports the script
// from there (served with CORS, as the package's modules must be).

/** The cores the platform reports (at least 1). */
export const cores = () => Math.max(1, globalThis.navigator?.hardwareConcurrency ?? 1);

/**
 * Starts a worker: {post(message, transfer), terminate(), ref(), unref()}.
 * onMessage(data) for each message; onExit(reason) once, when it stops by
 * itself (an error it did not catch, a script that did not load).
 */
export function startThread({ onMessage, onExit }) {
  const url = new URL('./pool-worker.js', import.meta.url);
  const here = globalThis.location?.origin;
  const foreign = !!here && here !== 'null' && url.origin !== here;
  const blob = foreign ? URL.createObjectURL(new Blob([`import ${JSON.stringify(url.href)};`], { type: 'text/javascript' })) : null;
  const worker = blob ? new Worker(blob, { type: 'module' }) : new Worker(new URL('./pool-worker.js', import.meta.url), { type: 'module' });
  let stopped = false;
  const stop = () => {
    if (stopped) return false;
    stopped = true;
    worker.terminate();
    if (blob) URL.revokeObjectURL(blob);
    return true;
  };
  worker.addEventListener('message', ({ data }) => { if (!stopped) onMessage(data); });
  worker.addEventListener('error', (e) => {
    e.preventDefault();
    if (stop()) onExit(e.message || (foreign ? `could not load ${url.href} (from another origin: CORS or the page's policy)` : `could not load ${url.href}`));
  });
  worker.addEventListener('messageerror', () => { if (stop()) onExit('a message could not be read'); });
  return {
    post: (message, transfer) => worker.postMessage(message, transfer),
    terminate: () => { stop(); },
    ref() {},
    unref() {},
  };
}
