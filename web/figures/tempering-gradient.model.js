// tempering-gradient.model.js: the other half of why attention divides its
// scores by sqrt(d_k): learning. The gradient a loss sends back through the
// softmax to the scores it was given is P (dP - rowsum(P dP)) (P the weights,
// dP the gradient arriving at them). When the softmax saturates (one weight
// near 1, the rest near 0) every term of that product is near 0: the scores,
// and so the queries and keys, stop learning. Unscaled dot products of d_k
// unit-variance features have variance d_k, so the softmax saturates more as
// d_k grows; divided by sqrt(d_k) their variance stays 1 and the gradient keeps
// its size. The kernels compute the dot products (matmul), both softmaxes and
// both gradients (softmaxBackward); this file only draws the numbers together.
import { columns } from './mat.js';
import { normalMatrix } from './random.js';

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
 * of the gradient that reaches the logits (one row per query) and the mean
 * largest weight.
 */
export function temperingGradientModel(attn, { dk = 64 } = {}) {
  if (!(Number.isInteger(dk) && dk >= 1 && dk <= MAX_DK)) throw new RangeError(`dk must be an integer in 1..${MAX_DK}`);
  const { Q, K, dP } = sample();
  const raw = attn.matmul(columns(Q, 0, dk), columns(K, 0, dk), { transposeB: true });
  const side = (temperature) => {
    // softmax(raw / T) is softmax of the logits raw / T; the gradient with
    // respect to those logits is softmaxBackward at temperature 1.
    const P = attn.softmax(raw, { temperature });
    return { norm: meanRowNorm(attn.softmaxBackward(P, dP)), top: meanTopWeight(P) };
  };
  return { dk, unscaled: side(1), scaled: side(Math.sqrt(dk)) };
}

/** The model at every d_k of DKS: the curve a figure draws. */
export const temperingGradientCurve = (attn) => DKS.map((dk) => temperingGradientModel(attn, { dk }));
