// cost.worker.js: runs the attention-cost sweep off the page's main thread,
// so a long measurement never freezes the page. It loads its own engines
// (the best SIMD build, relaxed or plain, where supported, and scalar) from
// the same folder as the figures' wasm, and posts one message per measurement.
//   in:  {type: 'run', maxN, d, budgetMs, wasmBase}
//   out: {type: 'start', simd}, {type: 'result', build, kernel, n, d, ms, bytes | skipped},
//        {type: 'done'}, {type: 'error', message}
import { loadAttention } from '../../attention.js';
import { BUILDS, bestBuild } from '../../api/load.js';
import { sweep } from './cost.model.js';

async function engines(base) {
  const load = (build) => loadAttention({ build, ...(base ? { wasmUrl: new URL(BUILDS[build], base) } : {}) });
  const best = bestBuild();
  return best === 'scalar' ? { scalar: await load('scalar') } : { simd: await load(best), scalar: await load('scalar') };
}

self.addEventListener('message', async ({ data }) => {
  if (data?.type !== 'run') return;
  try {
    const found = await engines(data.wasmBase);
    self.postMessage({ type: 'start', simd: !!found.simd });
    for (const r of sweep(found, data)) self.postMessage({ type: 'result', ...r });
    self.postMessage({ type: 'done' });
  } catch (err) {
    self.postMessage({ type: 'error', message: err.message });
  }
});
