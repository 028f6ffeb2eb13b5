// spawn.js: start a figure's worker, the one way the training and measuring
// figures do.
//
// A page can start a worker only from its own origin. Figures served from
// another one (a CDN) start a same-origin blob: module that imports the
// worker's script from there (which the CDN serves with CORS, as it must for
// the figures' modules). Messages may be promises (a compiled module still
// compiling): they are posted in the order given, once they resolve. Any
// failure (a rejected message, a script that cannot load, an error in the
// worker) is reported once through onError (the error's message, or words
// for FigureElement.say()), and nothing is tried again.

/** Start `url` as a module worker: {post(message or promise of one), terminate()}. */
export function spawn(url, { onMessage, onError }) {
  const href = String(url);
  const here = globalThis.location?.origin;
  const foreign = !!here && here !== 'null' && new URL(href, globalThis.location.href).origin !== here;
  const blob = foreign ? URL.createObjectURL(new Blob([`import ${JSON.stringify(href)};`], { type: 'text/javascript' })) : null;
  let closed = false;
  const stop = () => {
    if (closed) return;
    closed = true;
    worker?.terminate();
    if (blob) URL.revokeObjectURL(blob);
  };
  const fail = (message) => {
    if (closed) return;
    stop();
    onError(message);
  };
  let worker = null;
  try {
    worker = new Worker(blob ?? href, { type: 'module' });
  } catch (err) { // a page whose policy allows no worker from here
    queueMicrotask(() => fail(err.message));
  }
  worker?.addEventListener('message', ({ data }) => { if (!closed) onMessage(data); });
  worker?.addEventListener('error', (e) => {
    e.preventDefault();
    // (a script that did not load gives no message; from another origin, CORS or the page's policy is the likely cause)
    fail(foreign ? ['workerNotLoaded', { url: href, why: e.message }] : e.message || null);
  });
  let chain = Promise.resolve();
  return {
    post(message) {
      chain = chain.then(async () => {
        const m = await message;
        if (!closed) worker.postMessage(m);
      });
      chain.catch((err) => fail(err.message));
    },
    terminate: stop,
  };
}
