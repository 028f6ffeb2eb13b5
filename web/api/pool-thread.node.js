// pool-thread.node.js: a pool's worker in Node, a worker_threads Worker
// running pool-worker.node.js. package.json "imports": "#pool-thread" under
// the "node" condition (pool-thread.js under any other), so no browser
// bundle sees node: modules.
import { Worker } from 'node:worker_threads';
import * as os from 'node:os';

/** The cores the platform reports (at least 1). */
export const cores = () => Math.max(1, os.availableParallelism?.() ?? os.cpus().length);

/**
 * Starts a worker: {post(message, transfer), terminate(), ref(), unref()}.
 * onMessage(data) for each message; onExit(reason) once, when it stops by
 * itself (an uncaught error, process.exit, terminate() from elsewhere).
 * An idle worker is unref()'d by the pool, so that it keeps no process
 * alive by itself.
 */
export function startThread({ onMessage, onExit }) {
  // The process's flags, unless they have --input-type (node -e), which a
  // worker's file refuses: then none (V8's flags, such as
  // --experimental-wasm-relaxed-simd, hold for every thread anyway).
  const execArgv = process.execArgv.some((flag) => flag.startsWith('--input-type')) ? [] : undefined;
  const worker = new Worker(new URL('./pool-worker.node.js', import.meta.url), { execArgv });
  let stopped = false;
  const gone = (reason) => {
    if (stopped) return;
    stopped = true;
    onExit(reason);
  };
  worker.on('message', (data) => { if (!stopped) onMessage(data); });
  worker.on('error', (err) => gone(err.message));
  worker.on('messageerror', () => gone('a message could not be read'));
  worker.on('exit', (code) => gone(`it exited with code ${code}`));
  return {
    post: (message, transfer) => worker.postMessage(message, transfer),
    terminate() {
      stopped = true;
      return worker.terminate();
    },
    ref: () => worker.ref(),
    unref: () => worker.unref(),
    worker, // (tests end it from outside, as a crash would)
  };
}
