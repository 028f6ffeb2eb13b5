// backward.js: the gradients of attention and multi-head attention (the
// training part: training.js; the softmax's own is in ops.js). Each call
// takes what the forward call it differentiates takes, plus the gradient of
// a loss with respect to that call's result; it is checked by the same
// validators, runs the forward again in wasm (the backward needs its
// output, and its weights or each row's log-sum-exp), then the backward,
// and returns fresh Float32Arrays.
import { FUSED_HINT, checkBytes, expectShape, toFlag, toFloat32, toMatrix, toOptions } from './check.js';
import { putGrads, putLayer, toLayer, toSequences } from './layer.js';
import { putMasks, toMasks } from './masks.js';
import { toAttentionCall } from './ops.js';

/**
 * attentionBackward()'s arguments checked before any wasm memory is
 * touched (the NaN scan aside): the call runAttentionBackward runs,
 * attention's call (toAttentionCall) with dO, the gradient of its output.
 */
export function toAttentionBackward(Q, K, V, dOutput, options) {
  const opts = toOptions(options, 'attentionBackward');
  const c = toAttentionCall(Q, K, V, opts, 'attentionBackward');
  const { n_q, n_k, d_v, wantWeights } = c;
  const dO = toMatrix(dOutput, 'dOutput');
  expectShape(dO, 'dOutput', n_q, d_v, 'one gradient per output value: n_q x d_v');
  // Q, K, V, dOutput and their gradients, the output, the log-sum-exp.
  checkBytes(
    4 * (2 * (c.Q.data.length + c.K.data.length + c.V.data.length + n_q * d_v) + n_q) +
      (wantWeights || opts.mask ? 4 * n_q * n_k : 0),
    `attentionBackward with ${n_q} queries and ${n_k} keys`,
    wantWeights ? FUSED_HINT : '',
  );
  return { ...c, dO };
}

/** The inputs of a checked backward call copied into `arena` (each scanned): {q, k, v, dout, masks}. */
export function putAttentionBackward(arena, c) {
  const [q, key, v, dout] = [c.Q, c.K, c.V, c.dO].map((m) => arena.input(m));
  return { q, k: key, v, dout, masks: putMasks(arena, c.masks) };
}

// The forward the backward needs, into `arena`: out, and the weights (w) or
// each row's log-sum-exp (lse).
function forward(k, arena, c, p) {
  const { n_q, n_k, d_k, d_v, wantWeights } = c;
  const ex = k.ex;
  const scale = toFloat32(c.scale);
  const out = arena.floats(n_q * d_v);
  const w = wantWeights ? arena.floats(n_q * n_k) : 0;
  const lse = wantWeights ? 0 : arena.floats(n_q);
  if (wantWeights) {
    k.check(ex.attn_attention(out, w, p.q, p.k, p.v, n_q, n_k, d_k, d_v, scale, p.masks, 0), 'attentionBackward');
  } else {
    const ws = arena.alloc(ex.attn_attention_workspace_size(n_q, n_k, d_k, d_v, 0) >>> 0);
    k.check(ex.attn_attention_lse(out, lse, p.q, p.k, p.v, n_q, n_k, d_k, d_v, scale, p.masks, ws), 'attentionBackward');
  }
  return { out, w, lse };
}

/** Runs a checked backward call (toAttentionBackward): {dQ, dK, dV}. */
export function runAttentionBackward(k, c) {
  const { n_q, n_k, d_k, d_v } = c;
  return k.run((arena, ex) => {
    const p = putAttentionBackward(arena, c);
    const { out, w, lse } = forward(k, arena, c, p);
    const [dQ, dK, dV] = [n_q * d_k, n_k * d_k, n_k * d_v].map((n) => arena.floats(n));
    const ws = arena.alloc(ex.attn_attention_backward_workspace_size(n_q, n_k, d_k, d_v) >>> 0);
    k.check(ex.attn_attention_backward(
      dQ, dK, dV, p.q, p.k, p.v, out, p.dout, w, lse, n_q, n_k, d_k, d_v, toFloat32(c.scale), p.masks, ws,
    ), 'attentionBackward');
    return { dQ: k.read(dQ, n_q, d_k), dK: k.read(dK, n_k, d_k), dV: k.read(dV, n_k, d_v) };
  });
}

// ---- the backward in pieces (a pool of workers: api/pool.js) --------------

/**
 * The forward of a checked backward call (its rows may be a block, with
 * masks.first): {output: n_q x d_v, lse: Float32Array (n_q) | null,
 * weights: n_q x n_k | null}, the whole call's bits for those rows.
 */
export function runBackwardForward(k, c) {
  const { n_q, n_k, d_v } = c;
  return k.run((arena) => {
    const { out, w, lse } = forward(k, arena, c, putAttentionBackward(arena, c));
    return { output: k.read(out, n_q, d_v), weights: w ? k.read(w, n_q, n_k) : null, lse: lse ? k.read(lse, 1, n_q).data : null };
  });
}

// out, and the weights or lse, of a checked call, into `arena`.
function putForward(arena, c, { output, weights, lse }) {
  return { out: arena.put(output.data), w: weights ? arena.put(weights.data) : 0, lse: lse ? arena.put(lse) : 0 };
}

/** dQ (n_q x d_k) of a checked backward call given its forward (runBackwardForward's), rows alone (masks.first). */
export function runBackwardDq(k, c, fwd) {
  const { n_q, n_k, d_k, d_v } = c;
  return k.run((arena, ex) => {
    const p = putAttentionBackward(arena, c);
    const f = putForward(arena, c, fwd);
    const dQ = arena.floats(n_q * d_k);
    const ws = arena.alloc(ex.attn_attention_backward_workspace_size(n_q, n_k, d_k, d_v) >>> 0);
    k.check(ex.attn_attention_backward_dq(
      dQ, p.q, p.k, p.v, f.out, p.dout, f.w, f.lse, n_q, n_k, d_k, d_v, toFloat32(c.scale), p.masks, ws,
    ), 'attentionBackward');
    return k.read(dQ, n_q, d_k);
  });
}

/** dK, dV of keys j0 .. j1-1 of a checked backward call given its forward; j0 a multiple of 128. */
export function runBackwardDkv(k, c, fwd, j0, j1) {
  const { n_q, n_k, d_k, d_v } = c;
  return k.run((arena, ex) => {
    const p = putAttentionBackward(arena, c);
    const f = putForward(arena, c, fwd);
    const [dK, dV] = [(j1 - j0) * d_k, (j1 - j0) * d_v].map((n) => arena.floats(n));
    const ws = arena.alloc(ex.attn_attention_backward_workspace_size(n_q, n_k, d_k, d_v) >>> 0);
    k.check(ex.attn_attention_backward_dkv(
      dK, dV, p.q, p.k, p.v, f.out, p.dout, f.w, f.lse, n_q, n_k, d_k, d_v, toFloat32(c.scale), p.masks, j0, j1, ws,
    ), 'attentionBackward');
    return { dK: k.read(dK, j1 - j0, d_k), dV: k.read(dV, j1 - j0, d_v) };
  });
}

/**
 * dQ, dK, dV of attention(Q, K, V, options) given dOutput = dLoss/doutput
 * (n_q x d_v). weights: false runs the fused forward and backward (the
 * weights recomputed tile by tile from each row's log-sum-exp): memory O(N d).
 */
export function attentionBackward(k, Q, K, V, dOutput, options) {
  return runAttentionBackward(k, toAttentionBackward(Q, K, V, dOutput, options));
}

/**
 * Everything a multi-head backward call needs besides the layer's
 * parameters, checked before any wasm memory is touched: dY (n_q x d_model)
 * and the options of the forward call (masks, weights).
 */
export function toMhaBackwardCall(layer, Xq, Xkv, dY, opts) {
  const { heads, d } = layer;
  const [n_q, n_k] = [Xq.rows, Xkv.rows];
  dY = toMatrix(dY, 'dY');
  expectShape(dY, 'dY', n_q, d, 'one gradient per output value: n_q x d_model');
  const wantWeights = toFlag(opts.weights, 'weights', true);
  // inputs and their gradients, 4 (n_q + n_k) d of projections and their
  // gradients, the parameter gradients, one head's weights
  checkBytes(
    4 * (7 * n_q * d + 7 * n_k * d + 8 * d * d) + (wantWeights || opts.mask ? 4 * n_q * n_k : 0),
    `multiHeadAttentionBackward with ${n_q} queries, ${n_k} keys and ${heads} heads`,
    wantWeights ? FUSED_HINT : '',
  );
  return { layer, Xq, Xkv, dY, wantWeights, masks: toMasks(opts, n_q, n_k) };
}

/**
 * One checked multi-head backward call (toMhaBackwardCall) with the layer's
 * parameters at `params` (attn_mha_params in wasm); buffers from `arena`.
 * Returns {dXq, dXkv (null for self-attention), dWq..dWo, dbq..dbo}.
 */
export function runMhaBackward(k, arena, params, { layer: { heads, d }, Xq, Xkv, dY, wantWeights, masks }) {
  const ex = k.ex;
  const [n_q, n_k] = [Xq.rows, Xkv.rows];
  const self = Xkv === Xq;
  const xq = arena.input(Xq);
  const xkv = self ? xq : arena.input(Xkv);
  const dy = arena.input(dY);
  const dxq = arena.floats(n_q * d);
  const dxkv = self ? 0 : arena.floats(n_k * d);
  const grads = putGrads(arena, d);
  const ws = arena.alloc(ex.attn_mha_backward_workspace_size(n_q, n_k, d, heads, wantWeights ? 1 : 0) >>> 0);
  k.check(ex.attn_mha_backward(
    dxq, dxkv, grads.ptr, xq, xkv, dy, n_q, n_k, d, heads, params, putMasks(arena, masks), wantWeights ? 1 : 0, ws,
  ), 'multiHeadAttentionBackward');
  return { dXq: k.read(dxq, n_q, d), dXkv: self ? null : k.read(dxkv, n_k, d), ...grads.read(k) };
}

/**
 * Every gradient of multiHeadAttention(Xq, Xkv, options) given dY =
 * dLoss/doutput (n_q x d_model): {dXq, dXkv, dWq..dWo, dbq..dbo}. Xkv null
 * or undefined = self-attention: dXkv is null and dXq the whole gradient of X.
 */
export function multiHeadAttentionBackward(k, Xq, Xkv, dY, options) {
  const opts = toOptions(options, 'multiHeadAttentionBackward');
  [Xq, Xkv] = toSequences(Xq, Xkv);
  const call = toMhaBackwardCall(toLayer(opts, Xq.cols), Xq, Xkv, dY, opts);
  return k.run((arena) => runMhaBackward(k, arena, putLayer(arena, call.layer), call));
}
