// pool-worker.js: a pool's Web Worker (pool-thread.js starts it; Node's is
// pool-worker.node.js). The work is pool-serve.js's.
import { serve } from './pool-serve.js';

serve({
  onMessage: (fn) => globalThis.addEventListener('message', ({ data }) => fn(data)),
  post: (message, transfer) => globalThis.postMessage(message, transfer),
});
