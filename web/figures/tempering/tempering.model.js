// tempering.model.js: why attention divides its scores by sqrt(d_k).
//
// Queries and keys have d_k independent standard normal entries, so each dot
// product is a sum of d_k unit-variance terms: its variance grows like d_k.
// Divided by sqrt(d_k) it keeps variance 1 whatever d_k is. Without the
// division the softmax sees ever larger differences and collapses onto one
// key. The kernels compute the dot products (matmul) and both softmaxes;
// the softmax of the scaled scores is softmax(raw / T) with T = tau sqrt(d_k),
// tau being the reader's extra temperature.
import { fillNormalColumns } from '../../kit/random.js';
import { columns, row, zeros } from '../../kit/mat.js';

export const MAX_DK = 512;
export const QUERIES = 256;
export const SAMPLE_KEYS = 256; // 65536 dot products for the spread
export const KEYS = 16; // the softmax looks at the first 16 keys
export const BINS = 81;

// The same random queries and keys for every d_k: more d_k = more columns,
// made when a d_k first needs them (all 512 cost a phone ~100 ms before the
// figure's first drawing, which needs 64).
let base = null;
function sample(dk) {
  base ??= { Q: zeros(QUERIES, MAX_DK), K: zeros(SAMPLE_KEYS, MAX_DK), made: 0 };
  if (dk > base.made) {
    fillNormalColumns(base.Q, 0x51ab, base.made, dk);
    fillNormalColumns(base.K, 0x7e3d, base.made, dk);
    base.made = dk;
  }
  return base;
}

/** Population variance of the values of `xs` multiplied by `scale`, without copying them (65,536 per change). */
function variance(xs, scale = 1) {
  let sum = 0;
  for (let i = 0; i < xs.length; i++) sum += xs[i] * scale;
  const m = sum / xs.length;
  let sq = 0;
  for (let i = 0; i < xs.length; i++) sq += (xs[i] * scale - m) ** 2;
  return sq / xs.length;
}
/** Entropy in bits of one weight row. */
export const entropy = (w) => -w.reduce((a, p) => (p > 0 ? a + p * Math.log2(p) : a), 0);

/** Counts of `values` times `scale` in BINS equal bins over [-range, range] (outliers in the end bins). */
function histogram(values, range, scale = 1) {
  const counts = new Array(BINS).fill(0);
  for (let i = 0; i < values.length; i++) {
    const k = Math.floor(((values[i] * scale + range) / (2 * range)) * BINS);
    counts[Math.max(0, Math.min(BINS - 1, k))]++;
  }
  return counts;
}

// over the rows of W in place (the same sums in the same order as
// mean(rows.map(entropy)) and mean(rows.map(max)), without copying 256 rows per change)
function softmaxStats(W) {
  let entropies = 0;
  let tops = 0;
  for (let i = 0; i < W.rows; i++) {
    let h = 0;
    let top = -Infinity;
    for (let j = i * W.cols; j < (i + 1) * W.cols; j++) {
      const p = W.data[j];
      if (p > 0) h += p * Math.log2(p);
      if (p > top) top = p;
    }
    entropies += -h;
    tops += top;
  }
  return { entropy: entropies / W.rows, top: tops / W.rows, example: row(W, 0) };
}

/**
 * {dk, tau} -> dot products raw (unscaled) and scaled by 1/sqrt(dk), their
 * variances and histograms over a shared range, and for the softmax over
 * the first KEYS keys: mean entropy (bits), mean largest weight and one example row,
 * unscaled (T = 1) and scaled (T = tau sqrt(dk)).
 */
export function temperingModel(attn, { dk = 64, tau = 1 } = {}) {
  const kept = spread(attn, dk);
  const { scores, unscaledSoftmax, ...products } = kept;
  return {
    dk,
    tau,
    ...products,
    // T = 1 whatever tau is: computed once per d_k
    unscaledSoftmax: unscaledSoftmax ?? (kept.unscaledSoftmax = softmaxStats(attn.softmax(scores))),
    scaledSoftmax: softmaxStats(attn.softmax(scores, { temperature: tau * Math.sqrt(dk) })),
    maxEntropy: Math.log2(KEYS),
  };
}

const rows = (M, n) => ({ rows: n, cols: M.cols, data: M.data.subarray(0, n * M.cols) });

// The queries' and keys' first d_k columns and their 65,536 products, made
// again for each d_k into the same arrays (a new d_k is a slider step, and
// every d_k is computed ahead): fresh ones would cost more than the matmul,
// each new page of memory zeroed and mapped.
let scratch = null;

// The spread of the 65,536 dot products depends on d_k only and costs a
// QUERIES x d_k x SAMPLE_KEYS matmul (33.5 M multiply-adds at d_k = 512, more
// than a frame): it is kept per d_k (two histograms and two variances, not the
// products), with the QUERIES x KEYS products the softmax needs (copying the
// queries' d_k columns costs a frame's worth at d_k = 512), so tau never
// recomputes them and a d_k seen once costs two small softmaxes.
const spreads = new WeakMap(); // attn -> Map(dk -> spread)

/** Whether the spread at `dk` is already kept (then temperingModel at that dk is cheap). */
export const hasSpread = (attn, dk) => !!spreads.get(attn)?.has(dk);

/**
 * {range, raw: {variance, histogram}, scaled: {variance, histogram}, scores}
 * of the dot products at `dk` (scores: the first KEYS keys' products, QUERIES
 * x KEYS, for the softmax), computed once.
 */
export function spread(attn, dk) {
  if (!spreads.has(attn)) spreads.set(attn, new Map());
  const kept = spreads.get(attn);
  if (kept.has(dk)) return kept.get(dk);
  const { Q, K } = sample(dk);
  scratch ??= { Q: new Float32Array(QUERIES * MAX_DK), K: new Float32Array(SAMPLE_KEYS * MAX_DK), raw: zeros(QUERIES, SAMPLE_KEYS) };
  const queries = columns(Q, 0, dk, scratch.Q);
  const raw = attn.matmul(queries, columns(K, 0, dk, scratch.K), { transposeB: true, into: scratch.raw });
  const range = 4 * Math.sqrt(dk);
  const scale = 1 / Math.sqrt(dk);
  const found = {
    range,
    raw: { variance: variance(raw.data), histogram: histogram(raw.data, range) },
    scaled: { variance: variance(raw.data, scale), histogram: histogram(raw.data, range, scale) },
    scores: attn.matmul(queries, columns(rows(K, KEYS), 0, dk), { transposeB: true }),
  };
  kept.set(dk, found);
  return found;
}
