// tempering-gradient.model.js: the other half of why attention divides its
// scores by sqrt(d_k): learning. The gradient a loss sends back through the
// softmax to its input (the logits, here q.k or q.k / sqrt(d_k)) is
// P (dP - rowsum(P dP)) (P the weights, dP the gradient arriving at them):
// the softmax's slope. When the softmax saturates (one weight near 1, the
// rest near 0) every term of that product is near 0 and little gets
// through. Unscaled dot products of d_k unit-variance features have
// variance d_k, so the softmax saturates more as d_k grows; divided by
// sqrt(d_k) their variance stays 1 and the slope keeps its size.
// That is not yet what a query receives: its gradient is the logits'
// gradient times the keys, divided by the same sqrt(d_k), and unscaled keys
// grow like sqrt(d_k); so here the queries' gradient does not shrink
// without the division (the model reports it too, and the figure says so).
// The kernels compute the dot products (matmul), both softmaxes and both
// gradients (softmaxBackward, matmul); this file only draws the numbers together.
import { columns } from '../../kit/mat.js';
import { normalMatrix } from '../../kit/random.js';

export const MAX_DK = 512;
export const QUERIES = 256;
export const KEYS = 16;
/** The d_k values of the curve: powers of 2 up to MAX_DK. */
export const DKS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512];

// The same seeded queries and keys for every d_k (more d_k = more columns),
// and one upstream gradient dP on the weights (standard normal: the same
// signal arriving whatever the scale).
let base = null;
function sample() {
  base ??= {
    Q: normalMatrix(QUERIES, MAX_DK, 0x6a11),
    K: normalMatrix(KEYS, MAX_DK, 0x2c4f),
    dP: normalMatrix(QUERIES, KEYS, 0x9e07),
  };
  return base;
}

// The queries' first d_k columns and the gradient that reaches them, made
// again for each d_k into the same arrays (fresh ones cost more than the
// products: each new page of memory zeroed and mapped).
let scratch = null;

/** Mean over rows of each row's Euclidean norm. */
function meanRowNorm(M) {
  let total = 0;
  for (let i = 0; i < M.rows; i++) {
    let s = 0;
    for (let j = 0; j < M.cols; j++) s += M.data[i * M.cols + j] ** 2;
    total += Math.sqrt(s);
  }
  return total / M.rows;
}

/** Mean over rows of the largest weight (1 = one-hot: saturated). */
function meanTopWeight(W) {
  let total = 0;
  for (let i = 0; i < W.rows; i++) total += Math.max(...W.data.subarray(i * W.cols, (i + 1) * W.cols));
  return total / W.rows;
}

/**
 * {dk} -> for the softmax over KEYS keys of QUERIES queries, without the
 * scale (logits = q.k) and with it (logits = q.k / sqrt(dk)): the mean norm
 * of the gradient that reaches the logits (one row per query: `norm`), of
 * the gradient that reaches the queries (`queries`), and the mean largest weight.
 */
export function temperingGradientModel(attn, { dk = 64 } = {}) {
  if (!(Number.isInteger(dk) && dk >= 1 && dk <= MAX_DK)) throw new RangeError(`dk must be an integer in 1..${MAX_DK}`);
  const { Q, K, dP } = sample();
  scratch ??= { Q: new Float32Array(QUERIES * MAX_DK), dQ: new Float32Array(QUERIES * MAX_DK) };
  const Kd = columns(K, 0, dk);
  const raw = attn.matmul(columns(Q, 0, dk, scratch.Q), Kd, { transposeB: true });
  const dQ = { rows: QUERIES, cols: dk, data: scratch.dQ.subarray(0, QUERIES * dk) };
  const side = (temperature) => {
    // softmax(raw / T) is softmax of the logits raw / T; the gradient with
    // respect to those logits is softmaxBackward at temperature 1, and the
    // queries' is that times K / T (logits = Q K^T / T)
    const P = attn.softmax(raw, { temperature });
    const G = attn.softmaxBackward(P, dP);
    return { norm: meanRowNorm(G), queries: meanRowNorm(attn.matmul(G, Kd, { into: dQ })) / temperature, top: meanTopWeight(P) };
  };
  return { dk, unscaled: side(1), scaled: side(Math.sqrt(dk)) };
}

/** The model at every d_k of DKS: the curve a figure draws. */
export const temperingGradientCurve = (attn) => DKS.map((dk) => temperingGradientModel(attn, { dk }));
