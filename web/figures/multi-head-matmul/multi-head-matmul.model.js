// multi-head-matmul.model.js: multi-head attention computed two ways.
// Stacked: one wide projection per role (d x d), split into h column
// slices, attention per slice, concatenate, times W^O (the kernel's
// multiHeadAttention). Separate: h independent heads with their own d x d/h
// matrices, then concatenate and W^O. They are the same computation.
import { columns, fromRows, zeros } from '../../kit/mat.js';

export const N = 4;
export const D_MODEL = 8;
export const TOKENS = ['we', 'split', 'the', 'heads'];
export const HEAD_COUNTS = [1, 2, 4];

// Small fixed pseudo-random numbers (a linear congruential generator), so
// the example is the same on every load.
function numbers(count, seed) {
  let x = seed >>> 0;
  return Array.from({ length: count }, () => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return Math.round(((x / 2 ** 32) * 2 - 1) * 100) / 100;
  });
}
const matrix = (rows, cols, seed) => {
  const M = zeros(rows, cols);
  M.data.set(numbers(rows * cols, seed));
  return M;
};

export const X = matrix(N, D_MODEL, 7);
export const WEIGHTS = { Wq: matrix(D_MODEL, D_MODEL, 11), Wk: matrix(D_MODEL, D_MODEL, 13), Wv: matrix(D_MODEL, D_MODEL, 17), Wo: matrix(D_MODEL, D_MODEL, 19) };

/** Both computations for h heads; `difference` is the largest gap between their outputs. */
export function multiHeadMatmul(attn, heads) {
  const dh = D_MODEL / heads;
  const stacked = attn.multiHeadAttention(X, null, { heads, ...WEIGHTS });
  const Q = attn.matmul(X, WEIGHTS.Wq);
  const K = attn.matmul(X, WEIGHTS.Wk);
  const V = attn.matmul(X, WEIGHTS.Wv);
  const perHead = Array.from({ length: heads }, (_, i) => {
    const [from, to] = [i * dh, (i + 1) * dh];
    // head i alone: its own d x d/h slices of the weights
    const Qi = attn.matmul(X, columns(WEIGHTS.Wq, from, to));
    const Ki = attn.matmul(X, columns(WEIGHTS.Wk, from, to));
    const Vi = attn.matmul(X, columns(WEIGHTS.Wv, from, to));
    const { output, weights } = attn.attention(Qi, Ki, Vi);
    return { Q: Qi, K: Ki, V: Vi, Z: output, weights };
  });
  const Z = fromRows(Array.from({ length: N }, (_, r) => perHead.flatMap((hd) => Array.from(hd.Z.data.subarray(r * dh, (r + 1) * dh)))));
  const Y = attn.matmul(Z, WEIGHTS.Wo);
  let difference = 0;
  Y.data.forEach((v, i) => { difference = Math.max(difference, Math.abs(v - stacked.output.data[i])); });
  return { heads, dh, Q, K, V, perHead, Z, Y, stacked, difference };
}
