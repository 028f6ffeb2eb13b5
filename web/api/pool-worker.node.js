// pool-worker.node.js: a pool's worker_threads Worker in Node
// (pool-thread.node.js starts it; browsers run pool-worker.js). The work is
// pool-serve.js's.
import { parentPort } from 'node:worker_threads';
import { serve } from './pool-serve.js';

serve({
  onMessage: (fn) => parentPort.on('message', fn),
  post: (message, transfer) => parentPort.postMessage(message, transfer),
});
