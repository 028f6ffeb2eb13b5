// ops.js: the single-matrix operations (the softmax and its backward among
// them) and scaled dot-product attention.
// Each takes the Kernels of one build first (see kernels.js).
import {
  CAP, FUSED_HINT, MEMORY_LIMIT, checkBytes, checkSize, expectShape, position, toFlag, toFloat32,
  toMatrix, toOptions, toPositive, toResult,
} from './check.js';
import { putMasks, toMasks } from './masks.js';

/** A matrix {rows, cols, data: Float32Array}; data defaults to zeros. */
export function matrix(rows, cols, data) {
  checkSize(rows, 'rows');
  checkSize(cols, 'cols');
  if (rows * cols > MEMORY_LIMIT / 4) {
    throw new RangeError(`rows*cols = ${rows}*${cols} values would not fit in wasm memory (${CAP})`);
  }
  if (data === undefined) return { rows, cols, data: new Float32Array(rows * cols) };
  const values = toMatrix({ rows, cols, data }, 'matrix').data;
  // NaN and +Infinity are never valid; -Infinity is, in masks and softmax.
  const bad = values.findIndex((v) => Number.isNaN(v) || v === Infinity);
  if (bad >= 0) {
    throw new RangeError(`matrix.data has ${values[bad]} at ${position(bad, cols)}; values must be finite (or -Infinity in a mask)`);
  }
  return { rows, cols, data: values };
}

/**
 * C = A B, or A B^T with {transposeB: true}. {into: C}, a matrix of C's shape
 * with Float32Array data (an earlier result, or a view of a larger buffer),
 * gets the product instead of a fresh array and is returned.
 */
export function matmul(k, A, B, options) {
  const opts = toOptions(options, 'matmul');
  A = toMatrix(A, 'A');
  B = toMatrix(B, 'B');
  const t = toFlag(opts.transposeB, 'transposeB', false);
  const inner = t ? B.cols : B.rows;
  if (A.cols !== inner) {
    throw new RangeError(
      `A is ${A.rows}x${A.cols} and B is ${B.rows}x${B.cols}: ` +
        `A.cols must equal ${t ? 'B.cols (transposeB)' : 'B.rows'}`,
    );
  }
  const n = t ? B.rows : B.cols;
  if (opts.into != null) toResult(opts.into, 'into', A.rows, n);
  checkBytes(4 * (A.data.length + B.data.length + A.rows * n), 'matmul');
  return k.run((arena, ex) => {
    const c = arena.floats(A.rows * n);
    k.check(ex.attn_matmul(c, arena.input(A), arena.input(B), A.rows, A.cols, n, t ? 1 : 0), 'matmul');
    return k.read(c, A.rows, n, opts.into ?? undefined);
  });
}

/** Row-wise softmax(M / temperature); a row of all -Infinity gives zeros. */
export function softmax(k, M, options) {
  const opts = toOptions(options, 'softmax');
  M = toMatrix(M, 'M', { allowMinusInf: true });
  const temperature = toPositive(opts.temperature, 'temperature', 1);
  checkBytes(8 * M.data.length, 'softmax');
  return k.run((arena, ex) => {
    const p = arena.input(M);
    k.check(ex.attn_softmax_rows(p, p, M.rows, M.cols, toFloat32(temperature)), 'softmax');
    return k.read(p, M.rows, M.cols);
  });
}

/**
 * The gradient of softmax(M / temperature) row-wise, from its result
 * `weights` and dWeights = dLoss/dweights: dLoss/dM (same shape).
 */
export function softmaxBackward(k, weights, dWeights, options) {
  const opts = toOptions(options, 'softmaxBackward');
  const Y = toMatrix(weights, 'weights');
  const dY = toMatrix(dWeights, 'dWeights');
  expectShape(dY, 'dWeights', Y.rows, Y.cols, 'one gradient per weight');
  const temperature = toPositive(opts.temperature, 'temperature', 1);
  checkBytes(8 * Y.data.length, 'softmaxBackward');
  return k.run((arena, ex) => {
    const y = arena.input(Y);
    const dy = arena.input(dY);
    k.check(ex.attn_softmax_backward(dy, y, dy, Y.rows, Y.cols, toFloat32(temperature)), 'softmaxBackward');
    return k.read(dy, Y.rows, Y.cols);
  });
}

/** Sinusoidal positional encoding, n positions x d features. */
export function positionalEncoding(k, n, d) {
  checkSize(n, 'n');
  checkSize(d, 'd');
  checkBytes(4 * n * d, 'positionalEncoding');
  return k.run((arena, ex) => {
    const p = arena.floats(n * d);
    k.check(ex.attn_positional_encoding(p, n, d), 'positionalEncoding');
    return k.read(p, n, d);
  });
}

/**
 * Q, K, V of an attention call, checked against each other, with the
 * options every attention call shares (scale, weights, masks). `what` names
 * the call in size errors.
 */
export function toAttentionCall(Q, K, V, opts, what) {
  Q = toMatrix(Q, 'Q');
  K = toMatrix(K, 'K');
  V = toMatrix(V, 'V');
  expectShape(K, 'K', undefined, Q.cols, 'keys need as many columns as the queries Q');
  expectShape(V, 'V', K.rows, undefined, 'one value row per key in K');
  const [n_q, n_k, d_k, d_v] = [Q.rows, K.rows, Q.cols, V.cols];
  const scale = toPositive(opts.scale, 'scale', 1 / Math.sqrt(d_k));
  const wantWeights = toFlag(opts.weights, 'weights', true);
  checkBytes(
    4 * (Q.data.length + K.data.length + V.data.length + n_q * d_v) +
      (wantWeights || opts.mask ? 4 * n_q * n_k : 0),
    `${what} with ${n_q} queries and ${n_k} keys`,
    wantWeights ? FUSED_HINT : '',
  );
  return { Q, K, V, n_q, n_k, d_k, d_v, scale, wantWeights, masks: toMasks(opts, n_q, n_k) };
}

/**
 * attention()'s arguments checked, before any wasm memory is touched (the
 * NaN scan aside: it runs as inputs are copied in): the call runAttention
 * runs, {Q, K, V, n_q, n_k, d_k, d_v, scale, wantWeights, masks, into}.
 */
export function toAttention(Q, K, V, options) {
  const opts = toOptions(options, 'attention');
  const c = toAttentionCall(Q, K, V, opts, 'attention');
  if (opts.into != null) {
    toResult(opts.into.output, 'into.output', c.n_q, c.d_v);
    if (c.wantWeights) toResult(opts.into.weights, 'into.weights', c.n_q, c.n_k);
  }
  return { ...c, into: opts.into ?? null };
}

/** The inputs of a checked attention call copied into `arena` (each scanned for NaN and infinities). */
export function putAttention(arena, c) {
  return { q: arena.input(c.Q), k: arena.input(c.K), v: arena.input(c.V), masks: putMasks(arena, c.masks) };
}

/** Runs a checked attention call (toAttention): {output, weights}. */
export function runAttention(k, c) {
  const { n_q, n_k, d_k, d_v, wantWeights } = c;
  const into = c.into ?? {};
  return k.run((arena, ex) => {
    const out = arena.floats(n_q * d_v);
    const w = wantWeights ? arena.floats(n_q * n_k) : 0;
    const ws = ex.attn_attention_workspace_size(n_q, n_k, d_k, d_v, wantWeights ? 1 : 0) >>> 0;
    const p = putAttention(arena, c);
    k.check(ex.attn_attention(
      out, w, p.q, p.k, p.v, n_q, n_k, d_k, d_v, toFloat32(c.scale), p.masks, ws ? arena.alloc(ws) : 0,
    ), 'attention');
    return { output: k.read(out, n_q, d_v, into.output), weights: wantWeights ? k.read(w, n_q, n_k, into.weights) : null };
  });
}

/**
 * softmax(scale Q K^T + masks) V. Returns {output, weights}; weights is
 * null with {weights: false}, which also selects the fused kernel whose
 * memory grows with N*d instead of N^2. {into: r}, r an earlier result of
 * the same shapes (or null), copies the results into r's arrays instead of
 * fresh ones.
 */
export function attention(k, Q, K, V, options) {
  return runAttention(k, toAttention(Q, K, V, options));
}
