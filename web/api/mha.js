// mha.js: multi-head attention, as one call or as a layer whose parameters
// stay in wasm memory (the layer's backward is the training part's:
// backward.js, reached through k.trainingPart).
import { FUSED_HINT, checkBytes, expectShape, toFlag, toMatrix, toOptions, toResult } from './check.js';
import { Arena, residentArena } from './kernels.js';
import { putLayer, toLayer, toSequences } from './layer.js';
import { putMasks, toMasks } from './masks.js';

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
  return { layer, Xq, Xkv, wantWeights, masks: toMasks(opts, n_q, n_k), into: toInto(opts.into, n_q, n_k, layer, wantWeights) };
}

// {into: r}: an earlier result whose arrays this call fills, or null.
function toInto(into, n_q, n_k, { heads, d }, wantWeights) {
  if (into == null) return null;
  toResult(into.output, 'into.output', n_q, d);
  if (wantWeights) {
    const list = into.weights, array = Array.isArray(list);
    if (list?.length !== heads || !array) {
      throw new (array ? RangeError : TypeError)(`into.weights must be an array of ${heads} matrices, one per head`);
    }
    list.forEach((w, h) => toResult(w, `into.weights[${h}]`, n_q, n_k));
  }
  return into;
}

// A result's Z and, once `heads` is read, its per-head split: kept beside
// the result (results stay plain objects), so that {into} can fill Z again.
const zOf = new WeakMap();

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

/**
 * A multi-head result: output (n_q x d), weights (per head, or null) and Z
 * (n_q x d, the heads' outputs side by side) as `heads`, split into per-head
 * matrices when first read. Z is copied (it may be a view of wasm memory)
 * unless `owned`, or is a function that makes it (owned) when first needed.
 * An earlier result `into` of this shape has its Z filled again (and split
 * again when read).
 */
export function mhaResult({ output, weights, Z, owned = false, n_q, heads, d, into }) {
  let zs = into && zOf.get(into);
  if (zs?.heads === heads && zs.Z.length === n_q * d) {
    zs.Z.set(typeof Z === 'function' ? Z() : Z);
    zs.perHead = null;
  } else {
    const make = typeof Z === 'function' ? Z : null;
    zs = { z: make ? null : owned ? Z : Z.slice(), get Z() { return (this.z ??= make()); }, heads, perHead: null };
  }
  const result = {
    output,
    weights,
    get heads() {
      return (zs.perHead ??= splitHeads(zs.Z, n_q, heads, d / heads));
    },
  };
  zOf.set(result, zs);
  return result;
}

// One checked multi-head call (toMhaCall) with the layer's parameters at
// `params`; the per-call buffers come from `arena`.
function runMha(k, arena, params, { layer: { heads, d }, Xq, Xkv, wantWeights, masks, into }) {
  const ex = k.ex;
  const [n_q, n_k] = [Xq.rows, Xkv.rows];
  const y = arena.floats(n_q * d);
  const z = arena.floats(n_q * d);
  const w = wantWeights ? arena.floats(heads * n_q * n_k) : 0;
  const xq = arena.input(Xq);
  const xkv = Xkv === Xq ? xq : arena.input(Xkv);
  const ws = ex.attn_mha_workspace_size(n_q, n_k, d, heads, wantWeights ? 1 : 0) >>> 0;
  k.check(ex.attn_mha(y, w, z, xq, xkv, n_q, n_k, d, heads, params, putMasks(arena, masks), arena.alloc(ws)),
    'multiHeadAttention');
  const weights = wantWeights
    ? Array.from({ length: heads }, (_, h) => k.read(w + 4 * h * n_q * n_k, n_q, n_k, into?.weights[h]))
    : null;
  // Z comes out in one piece (copied out of wasm memory by mhaResult).
  const Z = new Float32Array(ex.memory.buffer, z, n_q * d);
  return mhaResult({ output: k.read(y, n_q, d, into?.output), weights, Z, n_q, heads, d, into });
}

/**
 * multiHeadAttention()'s arguments checked before any wasm memory is
 * touched (the NaN scan aside): the call runMultiHeadAttention runs,
 * {layer, Xq, Xkv, wantWeights, masks, into}.
 */
export function toMultiHeadAttention(Xq, Xkv, options) {
  const opts = toOptions(options, 'multiHeadAttention');
  [Xq, Xkv] = toSequences(Xq, Xkv);
  return toMhaCall(toLayer(opts, Xq.cols), Xq, Xkv, opts);
}

/** The sequences and masks of a checked multi-head call copied into `arena` (each scanned): {xq, xkv, masks}. */
export function putMhaInputs(arena, call) {
  const xq = arena.input(call.Xq);
  return { xq, xkv: call.Xkv === call.Xq ? xq : arena.input(call.Xkv), masks: putMasks(arena, call.masks) };
}

/** The inputs of a checked multi-head call copied into `arena` (each scanned): {params, xq, xkv, masks}. */
export function putMultiHeadAttention(arena, call) {
  return { params: putLayer(arena, call.layer), ...putMhaInputs(arena, call) };
}

/** Runs a checked multi-head call (toMultiHeadAttention). */
export function runMultiHeadAttention(k, call) {
  return k.run((arena) => runMha(k, arena, putLayer(arena, call.layer), call));
}

/**
 * Heads h0 .. h1-1 of a checked multi-head call (attn_mha_heads): {Z: (n_q
 * x (h1 - h0) d/heads) Float32Array, those heads' outputs side by side,
 * weights: one n_q x n_k matrix per head, or null}: the bits of the whole
 * call's. `params`: the layer's attn_mha_params already in wasm memory (a
 * layer kept there), or null to copy call.layer in.
 */
export function runMhaHeads(k, call, h0, h1, params = null) {
  const { layer: { heads, d }, Xq, Xkv, wantWeights } = call;
  const [n_q, n_k, cols] = [Xq.rows, Xkv.rows, (h1 - h0) * (d / heads)];
  return k.run((arena, ex) => {
    const z = arena.floats(n_q * cols);
    const w = wantWeights ? arena.floats((h1 - h0) * n_q * n_k) : 0;
    const p = params ? { params, ...putMhaInputs(arena, call) } : putMultiHeadAttention(arena, call);
    const ws = ex.attn_mha_heads_workspace_size(n_q, n_k, d, heads, h0, h1, wantWeights ? 1 : 0) >>> 0;
    k.check(ex.attn_mha_heads(z, w, p.xq, p.xkv, n_q, n_k, d, heads, h0, h1, p.params, p.masks, arena.alloc(ws)),
      'multiHeadAttention');
    return {
      Z: k.read(z, n_q, cols).data,
      weights: wantWeights ? Array.from({ length: h1 - h0 }, (_, h) => k.read(w + 4 * h * n_q * n_k, n_q, n_k)) : null,
    };
  });
}

/**
 * Y = X W + b (attn_project: multi-head attention's output projection, as
 * attn_mha computes it); X, W checked matrices, b a checked vector or null.
 * `at`: [W, b] already in wasm memory (pointers; W then gives only its
 * shape), or null to copy them in.
 */
export function runProject(k, X, W, b, at = null) {
  return k.run((arena, ex) => {
    const y = arena.floats(X.rows * W.cols);
    const [w, bias] = at ?? [arena.input(W), arena.input(b)];
    k.check(ex.attn_project(y, arena.input(X), w, bias, X.rows, X.cols, W.cols), 'multiHeadAttention');
    return k.read(y, X.rows, W.cols);
  });
}

/** multiHeadAttentionLayer()'s options checked: the layer (toLayer). */
export function toLayerOptions(options) {
  const opts = toOptions(options, 'multiHeadAttentionLayer');
  if (opts.Wq === undefined) throw new TypeError('Wq is required (d_model x d_model)');
  return toLayer(opts, toMatrix(opts.Wq, 'Wq').rows);
}

/** The arguments of a layer's `what` (run, backward) checked against it: [Xq, Xkv, options]. */
export function toLayerArgs(layer, what, Xq, Xkv, options) {
  const o = toOptions(options, what);
  [Xq, Xkv] = toSequences(Xq, Xkv);
  expectShape(Xq, 'Xq', undefined, layer.d, 'rows as wide as the layer (d_model)');
  return [Xq, Xkv, o];
}

/** A layer's run(Xq, Xkv, options) checked: the call runMultiHeadAttention runs (with the layer's parameters). */
export const toLayerRun = (layer, Xq, Xkv, options) => toMhaCall(layer, ...toLayerArgs(layer, 'run', Xq, Xkv, options));

/**
 * Multi-head attention, Y = Concat(Z_1..Z_h) Wo + bo with Q = Xq Wq + bq,
 * K = Xkv Wk + bk, V = Xkv Wv + bv. Xkv null or undefined = self-attention.
 * Returns {output, weights: [per head] | null, heads: [per-head Z_i]}.
 * {into: r}, r an earlier result of the same shapes (or null), fills r's
 * arrays instead of fresh ones, as attention() does.
 */
export function multiHeadAttention(k, Xq, Xkv, options) {
  return runMultiHeadAttention(k, toMultiHeadAttention(Xq, Xkv, options));
}

/** What a disposed layer's calls throw. */
export const DISPOSED = 'this multiHeadAttentionLayer was disposed';

/**
 * The same layer with its parameters kept in wasm memory, for running it
 * many times without copying Wq..Wo each call (memoryInUse() counts them
 * until dispose()). layer.run(Xq, Xkv, {mask, causal, keyPaddingMask,
 * weights}) returns what multiHeadAttention returns; layer.backward(Xq, Xkv,
 * dY, same options) what multiHeadAttentionBackward returns.
 */
export function multiHeadAttentionLayer(k, options) {
  const layer = toLayerOptions(options);
  const self = { heads: layer.heads, dModel: layer.d };
  const resident = residentArena(k, self);
  let params;
  try {
    params = putLayer(resident.arena, layer);
  } catch (e) {
    resident.dispose();
    throw e;
  }
  // Xq and Xkv checked against the layer, then fn(Xq, Xkv, options).
  const checked = (what, Xq, Xkv, options, fn) => {
    if (!params) throw new Error(DISPOSED);
    return fn(...toLayerArgs(layer, what, Xq, Xkv, options));
  };
  self.run = (Xq, Xkv, options) => checked('run', Xq, Xkv, options, (xq, xkv, o) => {
    const call = toMhaCall(layer, xq, xkv, o);
    return k.run((arena) => runMha(k, arena, params, call));
  });
  self.backward = (Xq, Xkv, dY, options) => {
    const training = k.trainingPart('layer.backward');
    return checked('backward', Xq, Xkv, options, (xq, xkv, o) => {
      const call = training.toMhaBackwardCall(layer, xq, xkv, dY, o);
      return k.run((arena) => training.runMhaBackward(k, arena, params, call));
    });
  };
  self.dispose = () => {
    resident.dispose();
    params = 0;
  };
  return self;
}
