// attention.js: the package's one door. loadAttention() instantiates a build
// of the kernels and returns the API object; each group of calls lives in its
// own module under api/ (one job each), and the methods here only hand them
// this build's Kernels.
//
// Every call: check types, shapes and sizes and name the bad argument (before
// touching wasm memory), copy inputs into wasm (where a SIMD scan rejects NaN
// and infinities), run one C function, copy results out into fresh
// Float32Arrays, free everything in `finally`.
import { instantiate, simdSupported } from './api/load.js';
import { Kernels } from './api/kernels.js';
import { attention, matmul, matrix, positionalEncoding, softmax } from './api/ops.js';
import { multiHeadAttention, multiHeadAttentionLayer } from './api/mha.js';
import { attentionBackward, multiHeadAttentionBackward, softmaxBackward } from './api/backward.js';

export { simdSupported };

/**
 * Load the kernels. Options: `simd` (default: where supported),
 * `wasmUrl` (where the .wasm is; default next to this file in ../build/),
 * `wasmBinary` (the .wasm bytes themselves, skips fetching).
 */
export async function loadAttention(options = {}) {
  const simd = options.simd ?? simdSupported();
  const name = simd ? 'attention.simd.wasm' : 'attention.wasm';
  const url = new URL(options.wasmUrl ?? `../build/${name}`, import.meta.url);
  const ex = await instantiate(options.wasmBinary, url);
  return new Attention(new Kernels(ex), ex.attn_simd_enabled() === 1 && simd);
}

class Attention {
  #k;
  constructor(kernels, simd) {
    this.#k = kernels;
    /** True when the SIMD build runs. */
    this.simd = simd;
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
  positionalEncoding(n, d) { return positionalEncoding(this.#k, n, d); }
  attention(Q, K, V, options) { return attention(this.#k, Q, K, V, options); }
  multiHeadAttention(Xq, Xkv, options) { return multiHeadAttention(this.#k, Xq, Xkv, options); }
  multiHeadAttentionLayer(options) { return multiHeadAttentionLayer(this.#k, options); }
  softmaxBackward(weights, dWeights, options) { return softmaxBackward(this.#k, weights, dWeights, options); }
  attentionBackward(Q, K, V, dOutput, options) { return attentionBackward(this.#k, Q, K, V, dOutput, options); }
  multiHeadAttentionBackward(Xq, Xkv, dY, options) { return multiHeadAttentionBackward(this.#k, Xq, Xkv, dY, options); }
}
