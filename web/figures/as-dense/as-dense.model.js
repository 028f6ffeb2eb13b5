// as-dense.model.js: a fully connected layer y = x W + b written as multi-head
// self-attention, and checked against the direct layer.
//
// The construction (N inputs, one per token; d_model = 2N; h = N heads, each
// two columns wide):
//   token i      carries its input x_i and a tag 1, both in head i's columns
//                (columns 2i and 2i+1); everything else is 0
//   W^Q = 0, b^Q: every query asks each head for "the tag" (a large value in
//                the tag column), so head i scores key j by its tag in head i's
//                columns: high for token i, 0 for every other token
//   W^K          copies each tag into its own head's tag column
//   attention    is therefore fixed and one-hot: every query, in head i, takes
//                all of token i and nothing else (exactly, once the score gap
//                passes what float32's exp can tell from 0)
//   W^V = I      head i returns (x_i, 1): the concatenation Z is x, interleaved
//                with the tags, the same for every query
//   W^O          holds the dense weights: row 2i (head i's value) is row i of
//                W, the tag rows are 0; b^O is the dense bias b
// So every output row is x W + b: the layer is the special case h = N with a
// fixed attention pattern and W^V = I; all the learning sits in W^O.
import { fromRows, identity, zeros, put, row, toRows } from '../../kit/mat.js';
import { normalMatrix, uniform } from '../../kit/random.js';

export const N = 4; // inputs, tokens and heads
export const M = 4; // outputs of the dense layer
const D = 2 * N;
/** Score gap between the wanted key and the rest: exp(-GAP) is 0 in float32. */
export const GAP = 200;

/** Dense weights W (N x M) and bias b (M) from a seed. */
export function denseLayer(seed = 1) {
  const u = uniform(seed);
  return { W: normalMatrix(N, M, seed, 0.7), b: Array.from({ length: M }, () => Math.round((u() - 0.5) * 10) / 10) };
}

/** The attention layer's inputs and parameters for x (N numbers) and {W, b}. */
export function construction(x, { W, b }) {
  const X = zeros(N, D);
  const bq = new Array(D).fill(0);
  const Wk = zeros(D, D);
  const Wo = zeros(D, D);
  for (let i = 0; i < N; i++) {
    put(X, [[i, 2 * i, x[i]], [i, 2 * i + 1, 1]]);
    bq[2 * i + 1] = GAP * Math.sqrt(2); // the kernel scales scores by 1/sqrt(head width = 2)
    put(Wk, [[2 * i + 1, 2 * i + 1, 1]]);
    for (let c = 0; c < M; c++) put(Wo, [[2 * i, c, W.data[i * M + c]]]);
  }
  const bo = [...b, ...new Array(D - M).fill(0)];
  return { X, params: { heads: N, Wq: zeros(D, D), bq, Wk, Wv: identity(D), Wo, bo } };
}

/**
 * x (N numbers), layer {W, b} -> {X, params, weights (per head), Z, Y,
 * direct (x W + b from the kernels' matmul), maxDiff (over every row of Y)}.
 */
export function denseModel(attn, x, layer = denseLayer()) {
  const { X, params } = construction(x, layer);
  const r = attn.multiHeadAttention(X, null, params);
  // The direct layer: [x, 1] times [W; b], one matmul.
  const Wb = fromRows([...toRows(layer.W), layer.b]);
  const direct = row(attn.matmul([[...x, 1]], Wb), 0);
  const Y = toRows(r.output);
  const maxDiff = Math.max(...Y.flatMap((y) => direct.map((v, c) => Math.abs(y[c] - v))));
  const Z = fromRows(toRows(r.heads[0]).map((_, i) => r.heads.flatMap((Zh) => row(Zh, i))));
  return { X, params, weights: r.weights, Z, Y: r.output, direct, maxDiff };
}

/**
 * The colour scale's full value for every matrix but the heads' weights: the
 * largest magnitude among x, the layer, and the model's matrices, rounded up
 * to a multiple of 0.5. A slider step then mostly keeps the scale, and the
 * matrices it does not change (W, b, W^O) keep their colours and are not
 * painted again.
 */
export function colourMax(x, layer, m) {
  const all = [x, layer.W.data, layer.b, m.direct, m.X.data, m.Z.data, m.params.Wo.data, m.Y.data];
  let top = 0;
  for (const a of all) for (const v of a) top = Math.max(top, Math.abs(v));
  return Math.max(0.5, Math.ceil(top * 2) / 2);
}
