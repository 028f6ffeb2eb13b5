// mha.js: multi-head attention, as one call or as a layer whose parameters
// stay in wasm memory.
import {
  FUSED_HINT, checkBytes, checkSize, expectShape, toFlag, toMatrix, toOptions, toVector,
} from './check.js';
import { residentArena } from './kernels.js';
import { putMasks, toMasks } from './masks.js';

export const WEIGHT_NAMES = ['Wq', 'Wk', 'Wv', 'Wo'];
export const BIAS_NAMES = ['bq', 'bk', 'bv', 'bo'];

/** Xq and Xkv of a multi-head call; Xkv null or undefined = self-attention (Xkv === Xq). */
export function toSequences(Xq, Xkv) {
  Xq = toMatrix(Xq, 'Xq');
  Xkv = Xkv === null || Xkv === undefined ? Xq : toMatrix(Xkv, 'Xkv');
  expectShape(Xkv, 'Xkv', undefined, Xq.cols, 'keys and values come from rows as wide as Xq (d_model)');
  return [Xq, Xkv];
}

/** The parameters of a multi-head layer of width d, checked. */
export function toLayer(opts, d) {
  if (opts.heads === undefined) throw new TypeError('heads is required (a positive integer that divides d_model)');
  const heads = checkSize(opts.heads, 'heads');
  if (d % heads !== 0) throw new RangeError(`heads (${heads}) must divide d_model (${d})`);
  const layer = { heads, d };
  for (const key of WEIGHT_NAMES) {
    if (opts[key] === undefined) throw new TypeError(`${key} is required (${d}x${d})`);
    layer[key] = toMatrix(opts[key], key);
    expectShape(layer[key], key, d, d, 'd_model x d_model');
  }
  for (const key of BIAS_NAMES) {
    layer[key] = opts[key] === undefined || opts[key] === null ? null : toVector(opts[key], key, d, 'one per column of d_model');
  }
  checkBytes(16 * d * d, `a multi-head layer with d_model = ${d}`);
  return layer;
}

// Everything a multi-head call needs besides the layer, checked before any
// wasm memory is touched.
function toMhaCall(layer, Xq, Xkv, opts) {
  const { heads, d } = layer;
  const [n_q, n_k] = [Xq.rows, Xkv.rows];
  const wantWeights = toFlag(opts.weights, 'weights', true);
  checkBytes(
    4 * (3 * n_q * d + 3 * n_k * d + 4 * d * d) + (wantWeights || opts.mask ? 4 * heads * n_q * n_k : 0),
    `multiHeadAttention with ${n_q} queries, ${n_k} keys and ${heads} heads`,
    wantWeights ? FUSED_HINT : '',
  );
  return { layer, Xq, Xkv, wantWeights, masks: toMasks(opts, n_q, n_k) };
}

/** Copies a layer's parameters into `arena`; returns the attn_mha_params struct (Wq..Wo, bq..bo pointers). */
export function putLayer(arena, layer) {
  return arena.words([...WEIGHT_NAMES, ...BIAS_NAMES].map((key) => arena.input(layer[key])));
}

// Z (rows x heads*dh) as one matrix per head; each head's rows are copied
// with set(), which measured 2-3x faster than element loops.
function splitHeads(Z, rows, heads, dh) {
  return Array.from({ length: heads }, (_, h) => {
    const data = new Float32Array(rows * dh);
    for (let i = 0; i < rows; i++) {
      const from = (i * heads + h) * dh;
      data.set(Z.subarray(from, from + dh), i * dh);
    }
    return { rows, cols: dh, data };
  });
}

// One checked multi-head call (toMhaCall) with the layer's parameters at
// `params`; the per-call buffers come from `arena`.
function runMha(k, arena, params, { layer: { heads, d }, Xq, Xkv, wantWeights, masks }) {
  const ex = k.ex;
  const [n_q, n_k, dh] = [Xq.rows, Xkv.rows, d / heads];
  const y = arena.floats(n_q * d);
  const z = arena.floats(n_q * d);
  const w = wantWeights ? arena.floats(heads * n_q * n_k) : 0;
  const xq = arena.input(Xq);
  const xkv = Xkv === Xq ? xq : arena.input(Xkv);
  const ws = ex.attn_mha_workspace_size(n_q, n_k, d, heads, wantWeights ? 1 : 0) >>> 0;
  k.check(ex.attn_mha(y, w, z, xq, xkv, n_q, n_k, d, heads, params, putMasks(arena, masks), arena.alloc(ws)),
    'multiHeadAttention');
  const weights = wantWeights
    ? Array.from({ length: heads }, (_, h) => k.read(w + 4 * h * n_q * n_k, n_q, n_k))
    : null;
  // Z comes out in one piece; it is split into per-head matrices only when
  // `heads` is first read (most callers want only the output).
  const Z = k.read(z, n_q, d).data;
  let perHead = null;
  return {
    output: k.read(y, n_q, d),
    weights,
    get heads() {
      return (perHead ??= splitHeads(Z, n_q, heads, dh));
    },
  };
}

/**
 * Multi-head attention, Y = Concat(Z_1..Z_h) Wo + bo with Q = Xq Wq + bq,
 * K = Xkv Wk + bk, V = Xkv Wv + bv. Xkv null or undefined = self-attention.
 * Returns {output, weights: [per head] | null, heads: [per-head Z_i]}.
 */
export function multiHeadAttention(k, Xq, Xkv, options) {
  const opts = toOptions(options, 'multiHeadAttention');
  [Xq, Xkv] = toSequences(Xq, Xkv);
  const call = toMhaCall(toLayer(opts, Xq.cols), Xq, Xkv, opts);
  return k.run((arena) => runMha(k, arena, putLayer(arena, call.layer), call));
}

/**
 * The same layer with its parameters kept in wasm memory, for running it
 * many times without copying Wq..Wo each call (memoryInUse() counts them
 * until dispose()). layer.run(Xq, Xkv, {mask, causal, keyPaddingMask,
 * weights}) returns what multiHeadAttention returns.
 */
export function multiHeadAttentionLayer(k, options) {
  const opts = toOptions(options, 'multiHeadAttentionLayer');
  if (opts.Wq === undefined) throw new TypeError('Wq is required (d_model x d_model)');
  const layer = toLayer(opts, toMatrix(opts.Wq, 'Wq').rows);
  const self = { heads: layer.heads, dModel: layer.d };
  const resident = residentArena(k, self);
  let params;
  try {
    params = putLayer(resident.arena, layer);
  } catch (e) {
    resident.dispose();
    throw e;
  }
  self.run = (Xq, Xkv, runOptions) => {
    if (!params) throw new Error('this multiHeadAttentionLayer was disposed');
    const o = toOptions(runOptions, 'run');
    [Xq, Xkv] = toSequences(Xq, Xkv);
    expectShape(Xq, 'Xq', undefined, layer.d, 'rows as wide as the layer (d_model)');
    const call = toMhaCall(layer, Xq, Xkv, o);
    return k.run((arena) => runMha(k, arena, params, call));
  };
  self.dispose = () => {
    resident.dispose();
    params = 0;
  };
  return self;
}
