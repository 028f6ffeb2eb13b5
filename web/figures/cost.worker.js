// cost.worker.js: runs the attention-cost sweep off the page's main thread,
// so a long measurement never freezes the page. It loads its own engines
// (SIMD where supported, and scalar) from the same folder as the figures'
// wasm, and posts one message per measurement.
//   in:  {type: 'run', maxN, d, budgetMs, wasmBase}
//   out: {type: 'start', simd}, {type: 'result', build, kernel, n, d, ms, bytes | skipped},
//        {type: 'done'}, {type: 'error', message}
import { loadAttention, simdSupported } from '../attention.js';
import { sweep } from './cost.model.js';

const WASM = { simd: 'attention.simd.wasm', scalar: 'attention.wasm' };

async function engines(base) {
  const load = (build) => loadAttention({ simd: build === 'simd', ...(base ? { wasmUrl: new URL(WASM[build], base) } : {}) });
  return simdSupported() ? { simd: await load('simd'), scalar: await load('scalar') } : { scalar: await load('scalar') };
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
