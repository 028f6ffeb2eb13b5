// efficient.worker.js: runs the attention-efficient sweep (full, window and
// linear attention as N doubles) off the page's main thread. Its engine is
// the page's (the compiled module it posts: the best build the engine
// validates), and it posts one message per measurement. In a sweep the
// reader asked for (Measure), full attention also runs on every core, through
// a pool of workers of its own (kit/workers/cores.js), which end with it.
//   in:  {type: 'run', maxN, budgetMs, cores, modules: {best}}   (a WebAssembly.Module; cores: also on
//        every core, in a sweep the reader asked for)
//   out: {type: 'start', simd}, {type: 'result', mechanism, n, ms, bytes | skipped}
//        (mechanism 'cores': on every core, {cores, ms}), {type: 'done'}, {type: 'error', message}
import { loadAttention } from '../../attention.js';
import { sweepWithCores } from './efficient.model.js';
import { corePool } from '../../kit/workers/cores.js';

self.addEventListener('message', async ({ data }) => {
  if (data?.type !== 'run') return;
  try {
    const attn = await loadAttention({ module: data.modules.best, parts: 'attention' });
    self.postMessage({ type: 'start', simd: attn.simd });
    const pool = data.cores ? await corePool(data.modules.best) : null; // (a sweep the reader asked for)
    try {
      for await (const r of sweepWithCores(attn, pool, data)) self.postMessage({ type: 'result', ...r });
    } finally {
      await pool?.close();
    }
    self.postMessage({ type: 'done' });
  } catch (err) {
    self.postMessage({ type: 'error', message: err.message });
  }
});
