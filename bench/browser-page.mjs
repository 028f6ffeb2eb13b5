// browser-page.mjs: the browser bench's side inside Chromium. The Node side
// (browser.mjs) calls window.bench step by step and prints the tables; the
// engines, inputs, timing and checks are the very modules `npm run bench`
// uses in Node (forward.mjs, backward.mjs, efficient.mjs, train.mjs, gpt.mjs).
import { loadEngines, runConfig, runKernelAlone } from './sections/forward.mjs';
import { measureCeilingsBytes } from './lib/ceiling-measure.mjs';
import { ENGINES } from './engines/engines.mjs';
import { runBackward } from './sections/backward.mjs';
import { runEfficient } from './sections/efficient.mjs';
import { runTrain } from './sections/train.mjs';
import { runGpt } from './sections/gpt.mjs';
import { runPool } from './sections/pool.mjs';

const progress = (text) => console.info(text.trimEnd());

let engines = null;

window.bench = {
  /** Both ceilings (ceiling.mjs's modules, their bytes as arrays of numbers), measured together. */
  async ceilings(modules, options) {
    const built = Object.entries(modules).map(([kind, m]) => [kind, m.bytes ? { ...m, bytes: new Uint8Array(m.bytes) } : m]);
    return measureCeilingsBytes(Object.fromEntries(built), options);
  },
  /** Loads every engine once: { [id]: { version } | { unavailable } }. */
  async load({ quick }) {
    engines = await loadEngines({ quick });
    return Object.fromEntries(Object.entries(engines).map(([id, e]) => [id, e.unavailable ? { unavailable: e.unavailable } : { version: e.version }]));
  },
  /** One config, every engine interleaved: the rows (plain data). */
  async run(cfg, { quick }) {
    return runConfig(cfg, engines, { quick });
  },
  /** The forward kernel alone on each SIMD build (forward.mjs). */
  async kernel({ cfgs, quick, ceiling, relaxedCeiling }) {
    return runKernelAlone(cfgs, engines, { quick, ceiling, relaxedCeiling });
  },
  /** The gradients section (backward.mjs) on every build; progress lines go to the console. */
  async backward({ quick, ceiling, relaxedCeiling }) {
    const loadThis = (build) => ENGINES.find((e) => e.id === `wasm-${build}`).load({ quick });
    return runBackward({
      quick, ceiling, relaxedCeiling, loadThis, builds: ['relaxed', 'simd', 'scalar'], print: false,
      progress,
    });
  },
  /** The recent-advances section (efficient.mjs), with ruvector-attention-wasm. */
  efficient: ({ quick, full262k }) => runEfficient({ quick, full262k, progress }),
  /** The training section (train.mjs). */
  train: ({ quick }) => runTrain({ quick }),
  /** The GPT section (gpt.mjs): training and decoding. */
  gpt: ({ quick }) => runGpt({ quick }),
  /** The pool section (pool.mjs): Web Workers against the page's engine. */
  pool: ({ quick }) => runPool({ quick, progress }),
};
