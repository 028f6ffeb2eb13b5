// layer.js: what a multi-head attention call is given: its sequences and its
// layer's parameters, validated; and the C structs attn_mha_params and
// attn_mha_grads, written by field name (layout.js). Shared by the forward
// (mha.js) and the backward (backward.js).
import { checkBytes, checkSize, expectShape, toMatrix, toVector } from './check.js';

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

/**
 * Copies a layer's parameters into `arena`; returns the attn_mha_params
 * struct (Wq..Wo, bq..bo pointers), and with `pointers` {params, Wq..bo}.
 */
export function putLayer(arena, layer, pointers = false) {
  const at = Object.fromEntries([...WEIGHT_NAMES, ...BIAS_NAMES].map((key) => [key, arena.input(layer[key])]));
  const params = arena.struct('attn_mha_params', at);
  return pointers ? { params, ...at } : params;
}

/**
 * Room in `arena` for every parameter gradient of a d-wide layer: returns
 * the attn_mha_grads struct (dWq..dWo, dbq..dbo pointers) and read(k), which
 * copies them out as {dWq..dWo: d x d matrices, dbq..dbo: Float32Arrays}.
 */
export function putGrads(arena, d) {
  const names = [...WEIGHT_NAMES, ...BIAS_NAMES].map((name) => `d${name}`);
  const ptrs = names.map((name, i) => arena.floats(i < 4 ? d * d : d));
  return {
    ptr: arena.struct('attn_mha_grads', Object.fromEntries(names.map((name, i) => [name, ptrs[i]]))),
    read: (k) => Object.fromEntries(names.map((name, i) => [name, i < 4 ? k.read(ptrs[i], d, d) : k.read(ptrs[i], 1, d).data])),
  };
}
