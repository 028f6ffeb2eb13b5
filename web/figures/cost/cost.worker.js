// cost.worker.js: runs the attention-cost sweep off the page's main thread,
// so a long measurement never freezes the page. Its engines (the best SIMD
// build, relaxed or plain, where supported, and scalar) come from the
// compiled modules the page posts, and it posts one message per measurement.
// In a sweep the reader asked for (Measure), the fused kernel of the best
// build also runs on every core, through a pool of workers of its own
// (kit/workers/cores.js), which end with it.
//   in:  {type: 'run', maxN, d, budgetMs, cores, modules: {simd?, scalar}}   (WebAssembly.Module each;
//        cores: also on every core, in a sweep the reader asked for)
//   out: {type: 'start', simd}, {type: 'result', build, kernel, n, d, ms, bytes | skipped}
//        (build 'cores': on every core, {cores, ms}), {type: 'done'}, {type: 'error', message}
import { loadAttention } from '../../attention.js';
import { sweepWithCores } from './cost.model.js';
import { corePool } from '../../kit/workers/cores.js';

async function engines(modules) {
  const found = {};
  for (const [build, module] of Object.entries(modules)) found[build] = await loadAttention({ module, parts: 'attention' });
  return found;
}

self.addEventListener('message', async ({ data }) => {
  if (data?.type !== 'run') return;
  try {
    const found = await engines(data.modules);
    self.postMessage({ type: 'start', simd: !!found.simd });
    const pool = data.cores ? await corePool(data.modules.simd ?? data.modules.scalar) : null; // (a sweep the reader asked for)
    try {
      for await (const r of sweepWithCores(found, pool, data)) self.postMessage({ type: 'result', ...r });
    } finally {
      await pool?.close();
    }
    self.postMessage({ type: 'done' });
  } catch (err) {
    self.postMessage({ type: 'error', message: err.message });
  }
});
