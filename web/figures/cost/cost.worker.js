// cost.worker.js: runs the attention-cost sweep off the page's main thread,
// so a long measurement never freezes the page. Its engines (the best SIMD
// build, relaxed or plain, where supported, and scalar) come from the
// compiled modules the page posts, and it posts one message per measurement.
//   in:  {type: 'run', maxN, d, budgetMs, modules: {simd?, scalar}}   (WebAssembly.Module each)
//   out: {type: 'start', simd}, {type: 'result', build, kernel, n, d, ms, bytes | skipped},
//        {type: 'done'}, {type: 'error', message}
import { loadAttention } from '../../attention.js';
import { sweep } from './cost.model.js';

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
    for (const r of sweep(found, data)) self.postMessage({ type: 'result', ...r });
    self.postMessage({ type: 'done' });
  } catch (err) {
    self.postMessage({ type: 'error', message: err.message });
  }
});
