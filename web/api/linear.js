// linear.js: Performer's linear attention (FAVOR+) and its random features.
// Each takes the Kernels of one build first (see kernels.js).
//
// The features are drawn in C (attn_random_features: splitmix64 and plain
// float arithmetic, no libm), so a seed gives the same bits in the SIMD
// build, the scalar build and the native one the C tests run: drawing them
// in JavaScript would leave the native tests without them.
import { checkBytes, checkSize, toFlag, toFloat32, toOptions } from './check.js';
import { toAttentionCall } from './ops.js';

const DEFAULT_FEATURES = 256;
// Options of attention() that linear attention cannot honour: an error, not silence.
const NOT_HERE = ['mask', 'keyPaddingMask', 'window', 'globalTokens', 'weights'];

function toSeed(seed) {
  if (seed === undefined) return 0;
  if (typeof seed !== 'number') throw new TypeError(`seed must be a number, got ${typeof seed}`);
  if (!Number.isInteger(seed) || seed < 0 || seed >= 2 ** 32) {
    throw new RangeError(`seed must be an integer in 0 .. 2^32 - 1, got ${seed}`);
  }
  return seed;
}

function toFeatures(m) {
  return m === undefined ? DEFAULT_FEATURES : checkSize(m, 'features');
}

// m x d floats of features, written at a fresh pointer of `arena`.
function putFeatures(k, arena, m, d, seed) {
  const ptr = arena.floats(m * d);
  k.check(k.ex.attn_random_features(ptr, m, d, seed), 'randomFeatures');
  return ptr;
}

/** The m x d orthogonal random features linearAttention uses for `seed` (rows ~ N(0, I_d)). */
export function randomFeatures(k, m, d, options) {
  const opts = toOptions(options, 'randomFeatures');
  checkSize(m, 'features');
  checkSize(d, 'd');
  const seed = toSeed(opts.seed);
  checkBytes(4 * m * d, 'randomFeatures');
  return k.run((arena) => k.read(putFeatures(k, arena, m, d, seed), m, d));
}

/**
 * linearAttention()'s arguments checked before any wasm memory is touched
 * (the NaN scan aside): the call runLinearAttention runs.
 */
export function toLinearAttention(Q, K, V, options) {
  const opts = toOptions(options, 'linearAttention');
  for (const key of NOT_HERE) {
    if (opts[key] !== undefined && opts[key] !== null) {
      throw new TypeError(`linearAttention takes no ${key} (its options: features, seed, causal, scale)`);
    }
  }
  const c = toAttentionCall(Q, K, V, { scale: opts.scale, weights: false }, 'linearAttention');
  const { n_q, n_k, d_k, d_v } = c;
  const m = toFeatures(opts.features);
  const seed = toSeed(opts.seed);
  const causal = toFlag(opts.causal, 'causal', false);
  checkBytes(4 * (n_q * d_k + n_k * d_k + n_k * d_v + n_q * d_v + m * (2 * d_k + d_v + 130)), `linearAttention with ${m} features`);
  return { Q: c.Q, K: c.K, V: c.V, n_q, n_k, d_k, d_v, scale: c.scale, m, seed, causal };
}

/** The inputs of a checked linear attention call copied into `arena` (each scanned for NaN and infinities). */
export const putLinearAttention = (arena, c) => ({ q: arena.input(c.Q), k: arena.input(c.K), v: arena.input(c.V) });

/** Runs a checked linear attention call (toLinearAttention): {output}. */
export function runLinearAttention(k, c) {
  const { n_q, n_k, d_k, d_v, m } = c;
  return k.run((arena, ex) => {
    const out = arena.floats(n_q * d_v);
    const p = putLinearAttention(arena, c);
    const omega = putFeatures(k, arena, m, d_k, c.seed);
    const ws = ex.attn_linear_attention_workspace_size(n_q, n_k, d_k, d_v, m) >>> 0;
    k.check(ex.attn_linear_attention(
      out, p.q, p.k, p.v, omega, n_q, n_k, d_k, d_v, m, toFloat32(c.scale), c.causal ? 1 : 0, ws ? arena.alloc(ws) : 0,
    ), 'linearAttention');
    return { output: k.read(out, n_q, d_v) };
  });
}

/**
 * softmax(scale Q K^T) V estimated with `features` positive orthogonal
 * random features in O(N m d): {output}. Same seed, same output.
 */
export function linearAttention(k, Q, K, V, options) {
  return runLinearAttention(k, toLinearAttention(Q, K, V, options));
}
