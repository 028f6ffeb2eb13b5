// efficient.worker.js: runs the attention-efficient sweep (full, window and
// linear attention as N doubles) off the page's main thread. Its engine is
// the page's (the compiled module it posts: the best build the engine
// validates), and it posts one message per measurement.
//   in:  {type: 'run', maxN, budgetMs, modules: {best}}   (a WebAssembly.Module)
//   out: {type: 'start', simd}, {type: 'result', mechanism, n, ms, bytes | skipped},
//        {type: 'done'}, {type: 'error', message}
import { loadAttention } from '../../attention.js';
import { sweep } from './efficient.model.js';

self.addEventListener('message', async ({ data }) => {
  if (data?.type !== 'run') return;
  try {
    const attn = await loadAttention({ module: data.modules.best, parts: 'attention' });
    self.postMessage({ type: 'start', simd: attn.simd });
    for (const r of sweep(attn, data)) self.postMessage({ type: 'result', ...r });
    self.postMessage({ type: 'done' });
  } catch (err) {
    self.postMessage({ type: 'error', message: err.message });
  }
});
