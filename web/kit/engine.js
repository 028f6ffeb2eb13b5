// engine.js: the one attention engine every figure on a page shares.
//
// The first figure that starts loads the wasm; the others await the same
// promise. The promise lives on a global symbol so that two copies of the
// bundle on one page still share one instance.
import { loadAttention } from '../attention.js';
import { BUILDS, bestBuild } from '../api/load.js';

const KEY = Symbol.for('attention-wasm.engine');
let wasmBase = null;

/** Where the .wasm files are (a folder URL); the bundle sets this to its own folder. */
export function setWasmBase(url) {
  wasmBase = url;
}

/** The folder setWasmBase() gave, or null (for workers that load their own engine). */
export const wasmBaseUrl = () => wasmBase?.href;

/** The shared engine: a promise of the object loadAttention() returns. */
export function engine() {
  if (!globalThis[KEY]) {
    // One build, the best this engine validates: the page downloads only it.
    const build = bestBuild();
    globalThis[KEY] = loadAttention(wasmBase ? { build, wasmUrl: new URL(BUILDS[build], wasmBase) } : { build });
  }
  return globalThis[KEY];
}
