// engine.js: the one attention engine every figure on a page shares, and
// the compiled modules the figures' workers are given.
//
// The figures draw with the attention part alone (the small .wasm); the
// first figure that starts loads it, the others await the same promise. A
// worker gets a compiled WebAssembly.Module from the page (the page's own
// engine's, or one compiled here once) and neither fetches nor compiles the
// .wasm again. Both live on global symbols, so that two copies of the
// bundle on one page still share them.
import { compileAttention, loadAttention } from '../attention.js';
import { bestBuild, notAModule } from '../api/load.js';

const ENGINE = Symbol.for('attention-wasm.engine');
const MODULES = Symbol.for('attention-wasm.modules');

// The bundle's autoloader (autoload.js) may have started compiling the
// .wasm already, beside the figure's module: {build, url, module: a promise}.
const PREFETCH = Symbol.for('attention-wasm.prefetch');

/** The shared engine: a promise of loadAttention({ parts: 'attention' })'s object, in the best build this engine validates. */
export function engine() {
  globalThis[ENGINE] ??= (async () => {
    const build = bestBuild();
    const early = globalThis[PREFETCH];
    if (early?.build !== build) return loadAttention({ parts: 'attention', build });
    // what the autoloader fetched and compiled; what failed there, said in loadAttention's words
    const module = await early.module.catch((err) => { throw notAModule(early.url, err); });
    return loadAttention({ parts: 'attention', build, module });
  })();
  return globalThis[ENGINE];
}

/**
 * A promise of the compiled module of `parts` ('attention' or 'all') in
 * `build` (default: the best), for a worker's loadAttention({ module, parts }).
 * Compiled once per page (a failure too is kept: nothing retries it).
 */
export function workerModule(parts, build = bestBuild()) {
  const modules = (globalThis[MODULES] ??= new Map());
  const key = `${parts}/${build}`;
  if (!modules.has(key)) {
    modules.set(key, parts === 'attention' && build === bestBuild()
      ? engine().then((attn) => attn.module)
      : compileAttention({ parts, build }));
  }
  return modules.get(key);
}
