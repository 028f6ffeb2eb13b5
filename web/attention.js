// attention.js: the package's one door. loadAttention() instantiates a build
// of the kernels and returns the API object; each group of calls lives in its
// own module under api/ (one job each), and the methods here only hand them
// this build's Kernels.
//
// The engine has two parts (src/sources.txt): attention (the forward calls,
// the softmax and its backward, matmul, positional encoding) and training
// (the gradients of attention, tiny transformers). loadAttention() loads
// both; loadAttention({ parts: 'attention' }) the first alone: a smaller
// .wasm, and none of the training part's JavaScript (api/training.js, which
// only a dynamic import below reaches).
//
// Every call: check types, shapes and sizes and name the bad argument (before
// touching wasm memory), copy inputs into wasm (where a SIMD scan rejects NaN
// and infinities), run one C function, copy results out into fresh
// Float32Arrays, free everything in `finally`.
import { bestBuild, compileModule, instantiate, relaxedSimdSupported, simdSupported, toLoadOptions } from './api/load.js';
import { Kernels } from './api/kernels.js';
import {
  attention, matmul, matrix, positionalEncoding, putAttention, runAttention, softmax, softmaxBackward, toAttention,
} from './api/ops.js';
import {
  DISPOSED, mhaResult, multiHeadAttention, multiHeadAttentionLayer, putMhaInputs, putMultiHeadAttention, runMultiHeadAttention,
  toLayerOptions, toLayerRun, toMultiHeadAttention,
} from './api/mha.js';
import { putLayer } from './api/layer.js';
import { linearAttention, putLinearAttention, randomFeatures, runLinearAttention, toLinearAttention } from './api/linear.js';
import { checkSize } from './api/check.js';
import { rowMasks } from './api/masks.js';

export { bestBuild, relaxedSimdSupported, simdSupported };

// Every .wasm, by part and build, as one literal URL each: the form Vite,
// webpack 5, Parcel and Rollup recognise, copy into a build and rename. Each
// is made only when loadAttention needs it (not with a module, bytes or a
// wasmUrl of one's own).
const WASM = {
  attention: {
    relaxed: () => new URL('../build/attention-only.relaxed.wasm', import.meta.url),
    simd: () => new URL('../build/attention-only.simd.wasm', import.meta.url),
    scalar: () => new URL('../build/attention-only.wasm', import.meta.url),
  },
  all: {
    relaxed: () => new URL('../build/attention.relaxed.wasm', import.meta.url),
    simd: () => new URL('../build/attention.simd.wasm', import.meta.url),
    scalar: () => new URL('../build/attention.wasm', import.meta.url),
  },
};

/**
 * Load the kernels. Options: `parts` ('all', the default: every call;
 * 'attention': the attention part alone, whose training calls throw),
 * `build` ('relaxed', 'simd' or 'scalar'; default: the best the engine
 * validates), `simd` (false: scalar, true: SIMD; `build` wins); where the
 * engine comes from, the first given of: `module` (a compiled
 * WebAssembly.Module, e.g. attn.module sent to a worker), `wasmBinary` (the
 * .wasm bytes), `wasmUrl` (relative to the page, or in Node to the working
 * directory); default: the build's file in ../build/.
 */
export async function loadAttention(options = {}) {
  const e = await loadEngine(options);
  return new Attention(e.kernels, e);
}

/**
 * A pool of workers that run the engine's calls on every core, each with
 * this page's compiled module: `await pool.attention(Q, K, V, options)` and
 * the rest return what the engine's calls return, bit for bit (api/pool.js
 * says how calls are split). Options: `workers` (default: the cores the
 * platform reports minus one, at least 1) and loadAttention's (the engine
 * the pool runs small calls on, and whose module its workers instantiate).
 * `pool.close()` ends the workers.
 */
export async function attentionPool(options = {}) {
  const { createPool } = await import('./api/pool.js');
  return createPool(options, { load: loadEngine, calls: POOL_CALLS });
}

// The engine's functions a pool checks and runs calls with (given, not
// imported by api/pool.js: see there).
const POOL_CALLS = {
  toAttention, putAttention, runAttention, toMultiHeadAttention, putMultiHeadAttention, runMultiHeadAttention,
  mhaResult, toLinearAttention, putLinearAttention, runLinearAttention, checkSize, rowMasks,
  toLayerOptions, toLayerRun, putLayer, putMhaInputs, DISPOSED,
};

// What loadAttention and attentionPool load: {kernels, build, parts, module,
// tuned (the register tile, a promise)}.
async function loadEngine(options) {
  const o = toLoadOptions(options);
  // The training part's JavaScript loads while the wasm compiles.
  const [training, { module, ex, build }] = await Promise.all([
    o.parts === 'all' ? import('./api/training.js') : null,
    instantiate(o, () => WASM[o.parts][o.build]()),
  ]);
  // Only the full relaxed engine has a second register tile, 6x8 (the
  // attention part alone is built for size); api/tiles.js, which sets and
  // times them, loads only for it.
  const has6x8 = build === 'relaxed' && o.parts === 'all';
  if (o.tiles === '6x8' && !has6x8) throw new Error("attention-wasm: tiles '6x8' needs the full engine (attention.relaxed.wasm)");
  const tuned = has6x8 ? (await import('./api/tiles.js')).useTiles(ex, o.tiles) : '2x16';
  return { kernels: new Kernels(ex, training), build, parts: o.parts, module, tuned: Promise.resolve(tuned) };
}

/**
 * Compile the engine without instantiating it: a WebAssembly.Module to post
 * to Web Workers, each of which gets an engine of its own with
 * loadAttention({ module, parts }) and neither fetches nor compiles the .wasm.
 * Takes loadAttention's options (module aside).
 */
export async function compileAttention(options = {}) {
  if (options?.module !== undefined) throw new RangeError('compileAttention: a module is compiled already; pass it to loadAttention({ module })');
  const o = toLoadOptions(options);
  return (await compileModule(o, () => WASM[o.parts][o.build]())).module;
}

class Attention {
  #k;
  constructor(kernels, { build, parts, module, tuned }) {
    this.#k = kernels;
    /**
     * The register tile the products run, '2x16' or '6x8': a promise that
     * tiles: 'auto' resolves once it has timed both (api/tiles.js, in the
     * background), at once otherwise. The results are the same bits meanwhile.
     */
    this.tuned = tuned;
    /** Which build runs: 'relaxed', 'simd' or 'scalar'. */
    this.build = build;
    /** True when a SIMD build (plain or relaxed) runs. */
    this.simd = build !== 'scalar';
    /** 'all' (every call) or 'attention' (the attention part alone: training calls throw). */
    this.parts = parts;
    /** The compiled WebAssembly.Module: post it to a worker, which passes it to loadAttention({ module, parts }). */
    this.module = module;
  }

  /** Bytes the module has allocated right now (0 between calls). */
  memoryInUse() {
    return this.#k.memoryInUse();
  }

  /**
   * The most bytes in use at any moment of the calls since the previous
   * memoryPeak() (every byte a call uses, workspace included, comes through
   * one allocator); starts counting again from 0.
   */
  memoryPeak() {
    const peak = this.#k.peak;
    this.#k.peak = 0;
    return peak;
  }

  matrix(rows, cols, data) { return matrix(rows, cols, data); }
  matmul(A, B, options) { return matmul(this.#k, A, B, options); }
  softmax(M, options) { return softmax(this.#k, M, options); }
  softmaxBackward(weights, dWeights, options) { return softmaxBackward(this.#k, weights, dWeights, options); }
  positionalEncoding(n, d) { return positionalEncoding(this.#k, n, d); }
  attention(Q, K, V, options) { return attention(this.#k, Q, K, V, options); }
  multiHeadAttention(Xq, Xkv, options) { return multiHeadAttention(this.#k, Xq, Xkv, options); }
  multiHeadAttentionLayer(options) { return multiHeadAttentionLayer(this.#k, options); }
  linearAttention(Q, K, V, options) { return linearAttention(this.#k, Q, K, V, options); }
  randomFeatures(m, d, options) { return randomFeatures(this.#k, m, d, options); }

  // The training part: an Error naming the option on an engine loaded without it.
  attentionBackward(Q, K, V, dOutput, options) {
    return this.#k.trainingPart('attentionBackward').attentionBackward(this.#k, Q, K, V, dOutput, options);
  }
  multiHeadAttentionBackward(Xq, Xkv, dY, options) {
    return this.#k.trainingPart('multiHeadAttentionBackward').multiHeadAttentionBackward(this.#k, Xq, Xkv, dY, options);
  }
  createTransformer(options) {
    return this.#k.trainingPart('createTransformer').createTransformer(this.#k, options);
  }
}
