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
 * dQ, dK, dV of attention(Q, K, V, options) given dOutput = dLoss/doutput
 * (n_q x d_v). weights: false runs the fused forward and backward (the
 * weights recomputed tile by tile from each row's log-sum-exp): memory O(N d).
 */
export function attentionBackward(k, Q, K, V, dOutput, options) {
  const opts = toOptions(options, 'attentionBackward');
  const c = toAttentionCall(Q, K, V, opts, 'attentionBackward');
  const { n_q, n_k, d_k, d_v, wantWeights } = c;
  const dO = toMatrix(dOutput, 'dOutput');
  expectShape(dO, 'dOutput', n_q, d_v, 'one gradient per output value: n_q x d_v');
  // Q, K, V, dOutput and their gradients, the output, the log-sum-exp.
  checkBytes(
    4 * (2 * (c.Q.data.length + c.K.data.length + c.V.data.length + n_q * d_v) + n_q) +
      (wantWeights || opts.mask ? 4 * n_q * n_k : 0),
    `attentionBackward with ${n_q} queries and ${n_k} keys`,
    wantWeights ? FUSED_HINT : '',
  );
  return k.run((arena, ex) => {
    const [q, key, v, dout] = [c.Q, c.K, c.V, dO].map((m) => arena.input(m));
    const masks = putMasks(arena, c.masks);
    const scale = toFloat32(c.scale);
    const out = arena.floats(n_q * d_v);
    const w = wantWeights ? arena.floats(n_q * n_k) : 0;
    const lse = wantWeights ? 0 : arena.floats(n_q);
    if (wantWeights) {
      k.check(ex.attn_attention(out, w, q, key, v, n_q, n_k, d_k, d_v, scale, masks, 0), 'attentionBackward');
    } else {
      const ws = arena.alloc(ex.attn_attention_workspace_size(n_q, n_k, d_k, d_v, 0) >>> 0);
      k.check(ex.attn_attention_lse(out, lse, q, key, v, n_q, n_k, d_k, d_v, scale, masks, ws), 'attentionBackward');
    }
    const [dQ, dK, dV] = [n_q * d_k, n_k * d_k, n_k * d_v].map((n) => arena.floats(n));
    const ws = arena.alloc(ex.attn_attention_backward_workspace_size(n_q, n_k, d_k, d_v) >>> 0);
    k.check(ex.attn_attention_backward(
      dQ, dK, dV, q, key, v, out, dout, w, lse, n_q, n_k, d_k, d_v, scale, masks, ws,
    ), 'attentionBackward');
    return { dQ: k.read(dQ, n_q, d_k), dK: k.read(dK, n_k, d_k), dV: k.read(dV, n_k, d_v) };
  });
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
