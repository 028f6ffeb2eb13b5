// as-conv.model.js: a 1-D convolution with kernel size k written as k-head
// attention, checked against the direct convolution.
//
// The convolution (as deep-learning libraries define it: cross-correlation,
// zero padding, output as long as the input):
//   y[i][o] = b[o] + sum_r sum_c x[i + r - pad][c] K[r][c][o],  pad = (k-1)/2
// The construction (C input channels, P = N + k - 1 padded positions):
//   tokens   keys/values are the padded sequence, each row = its channels
//            (0 for padding) and a one-hot tag of its position; queries are
//            the N real tokens. Every head has C + P columns.
//   head r   looks at relative offset r - pad: W^Q maps the query's tag p to
//            tag p + r - pad in head r's tag columns, W^K copies every tag,
//            so the score is high for exactly that one neighbour. The gain
//            is 1/T: at T = 1 the softmax spreads weight over all positions,
//            as T -> 0 it becomes one-hot (exactly, once exp underflows)
//   W^V      is the identity on the channels in every head (each head passes
//            on the whole token it picked)
//   W^O      holds the kernel: head r's channel c feeds output o with K[r][c][o];
//            b^O = b
// At the hard limit head r returns x[i + r - pad], and Y = the convolution.
import { fromRows, put, toRows, zeros } from '../../kit/mat.js';

/** The construction for signal x (N x C rows), kernel K[r][c][o], bias b, temperature T. */
export function construction(x, K, b, temperature) {
  const [N, C, k, O] = [x.length, x[0].length, K.length, b.length];
  const pad = (k - 1) / 2;
  const P = N + k - 1;
  const dh = C + P;
  const D = k * dh;
  const gain = Math.sqrt(dh) / temperature; // undo the kernel's 1/sqrt(head width)
  const Xkv = zeros(P, D);
  for (let p = 0; p < P; p++) {
    const src = p - pad;
    if (src >= 0 && src < N) put(Xkv, x[src].map((v, c) => [p, c, v]));
    put(Xkv, [[p, C + p, 1]]);
  }
  const Xq = { rows: N, cols: D, data: Xkv.data.slice(pad * D, (pad + N) * D) };
  const [Wq, Wk, Wv, Wo] = [zeros(D, D), zeros(D, D), zeros(D, D), zeros(D, D)];
  for (let r = 0; r < k; r++) {
    const base = r * dh;
    for (let p = 0; p < P; p++) {
      put(Wk, [[C + p, base + C + p, 1]]);
      const target = p + r - pad;
      if (target >= 0 && target < P) put(Wq, [[C + p, base + C + target, gain]]);
    }
    for (let c = 0; c < C; c++) {
      put(Wv, [[c, base + c, 1]]);
      for (let o = 0; o < O; o++) put(Wo, [[base + c, o, K[r][c][o]]]);
    }
  }
  const bo = [...b, ...new Array(D - O).fill(0)];
  return { Xq, Xkv, params: { heads: k, Wq, Wk, Wv, Wo, bo }, N, C, k, O, P, pad };
}

/** The direct convolution through the kernels: patches [x(i-pad..i+pad), 1] times [K; b]. */
export function directConv(attn, x, K, b) {
  const [N, C, k] = [x.length, x[0].length, K.length];
  const pad = (k - 1) / 2;
  const patches = x.map((_, i) => [...K.flatMap((_, r) => {
    const src = i + r - pad;
    return src >= 0 && src < N ? x[src] : new Array(C).fill(0);
  }), 1]);
  const kernel = fromRows([...K.flatMap((tap) => tap), b]); // (k C + 1) x O
  return toRows(attn.matmul(patches, kernel));
}

/**
 * Signal x (N x C rows), kernel K (k x C x O), bias b (O), temperature ->
 * {weights (per head, N x P), Y (N x O), direct (N x O), maxDiff, hard, ...}.
 * `hard`: every head puts weight exactly 1 on its own offset and exactly 0
 * elsewhere (the hard limit; then Y is the convolution whatever the kernel).
 */
export function convModel(attn, { x, K, b, temperature = 0.1 }) {
  const c = construction(x, K, b, temperature);
  const r = attn.multiHeadAttention(c.Xq, c.Xkv, c.params);
  const Y = toRows(r.output).map((y) => y.slice(0, c.O));
  const direct = directConv(attn, x, K, b);
  const maxDiff = Math.max(...Y.flatMap((y, i) => y.map((v, o) => Math.abs(v - direct[i][o]))));
  // query i's head r wants padded position i + r (offset r - pad from position i + pad)
  const hard = r.weights.every((W, hd) => W.data.every((w, k) => w === (k % c.P === Math.floor(k / c.P) + hd ? 1 : 0)));
  return { ...c, weights: r.weights, Y, direct, maxDiff, hard };
}
