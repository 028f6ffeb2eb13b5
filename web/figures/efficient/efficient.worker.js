// efficient.worker.js: runs the attention-efficient sweep (full, window and
// linear attention as N doubles) off the page's main thread. It loads its
// own engine (the best build the engine validates) from the figures' wasm folder and posts
// one message per measurement.
//   in:  {type: 'run', maxN, budgetMs, wasmBase}
//   out: {type: 'start', simd}, {type: 'result', mechanism, n, ms, bytes | skipped},
//        {type: 'done'}, {type: 'error', message}
import { loadAttention } from '../../attention.js';
import { BUILDS, bestBuild } from '../../api/load.js';
import { sweep } from './efficient.model.js';

self.addEventListener('message', async ({ data }) => {
  if (data?.type !== 'run') return;
  try {
    const build = bestBuild();
    const attn = await loadAttention({ build, ...(data.wasmBase ? { wasmUrl: new URL(BUILDS[build], data.wasmBase) } : {}) });
    self.postMessage({ type: 'start', simd: attn.simd });
    for (const r of sweep(attn, data)) self.postMessage({ type: 'result', ...r });
    self.postMessage({ type: 'done' });
  } catch (err) {
    self.postMessage({ type: 'error', message: err.message });
  }
});
