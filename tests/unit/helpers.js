// helpers.js: what every test file shares.
//   - `builds`: the API loaded from every wasm build this engine runs (SIMD,
//     scalar, and relaxed SIMD where validated: Node 20 needs
//     --experimental-wasm-relaxed-simd, which tests/relaxed.test.js gives a
//     child process), and `forEachBuild` to run a suite once per build;
//   - seeded random inputs (numpy's MT19937, so a case can be rebuilt in Python);
//   - comparisons against the float64 reference with tolerances that come from
//     an error model of float32 arithmetic (below), reported with the seed.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe } from 'node:test';

import { loadAttention, relaxedSimdSupported } from '../../web/attention.js';
import { RandomState } from './mt19937.js';
import * as ref from './reference.js';

export { ref, RandomState };

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

// ---- the builds -------------------------------------------------------------

function ensureBuilt() {
  const wasm = ['attention', 'attention-only'].flatMap((name) => ['.simd', '', '.relaxed'].map((build) => new URL(`../../build/${name}${build}.wasm`, import.meta.url)));
  if (wasm.every((u) => existsSync(u))) return;
  execFileSync('bash', ['build.sh'], { cwd: ROOT, stdio: 'inherit' });
}

ensureBuilt();

const load = async (name) => ({ name, simd: name !== 'scalar', attn: await loadAttention({ build: name }) });

/** The SIMD and the scalar build, always; the relaxed build, or null where the engine lacks relaxed SIMD. */
export const [simdBuild, scalarBuild] = await Promise.all(['simd', 'scalar'].map(load));
export const relaxedBuild = relaxedSimdSupported() ? await load('relaxed') : null;

/**
 * [{name: 'simd' | 'scalar' | 'relaxed', simd, attn}], each its own wasm
 * instance: every build this engine runs, or those named in ATTN_TEST_BUILDS
 * (comma-separated; tests/relaxed.test.js sets 'relaxed'). Naming a build the
 * engine cannot run is an error, so such a run never passes empty.
 */
export const builds = (() => {
  const all = [simdBuild, scalarBuild, relaxedBuild].filter(Boolean);
  const wanted = process.env.ATTN_TEST_BUILDS?.split(',');
  if (!wanted) return all;
  const missing = wanted.filter((n) => !all.some((b) => b.name === n));
  if (missing.length) throw new Error(`ATTN_TEST_BUILDS: this engine cannot run ${missing.join(', ')}`);
  return all.filter((b) => wanted.includes(b.name));
})();

/** describe(`${title} [simd]`), describe(`${title} [scalar]`), ... per build; fn(attn, build). */
export function forEachBuild(title, fn) {
  for (const build of builds) describe(`${title} [${build.name}]`, () => fn(build.attn, build));
}

// ---- inputs --------------------------------------------------------------

/** A numpy-compatible generator: new RandomState(seed). */
export const rng = (seed) => new RandomState(seed);

/**
 * rows x cols float32 matrix, uniform in [lo, hi) (np.random.uniform with the
 * same seed gives the same numbers before rounding to float32). The reference
 * gets exactly these float32 values, so input rounding is not part of any error.
 */
export function randMatrix(rs, rows, cols, lo = -1, hi = 1) {
  return { rows, cols, data: Float32Array.from(rs.uniform(lo, hi, rows * cols)) };
}

export function randVector(rs, n, lo = -1, hi = 1) {
  return Float32Array.from(rs.uniform(lo, hi, n));
}

/** {rows, cols, data} -> array of plain arrays (rows). */
export function toNested(M) {
  return Array.from({ length: M.rows }, (_, i) => Array.from(M.data.subarray(i * M.cols, (i + 1) * M.cols)));
}

/** Copy of M with every value multiplied by s (rounded to float32). */
export function scaled(M, s) {
  return { rows: M.rows, cols: M.cols, data: M.data.map((x) => Math.fround(x * s)) };
}

/** Rows permuted: row i of the result is row perm[i] of M. */
export function permuteRows(M, perm) {
  const data = new M.data.constructor(M.data.length);
  perm.forEach((p, i) => data.set(M.data.subarray(p * M.cols, (p + 1) * M.cols), i * M.cols));
  return { rows: M.rows, cols: M.cols, data };
}

/** A random permutation of 0 .. n-1 (Fisher-Yates). */
export function randPermutation(rs, n) {
  const p = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = rs.int(i + 1);
    [p[i], p[j]] = [p[j], p[i]];
  }
  return p;
}

/**
 * The masks tests use, by kind, for n_q x n_k:
 *   none | additive (random terms in [-2, 2], about 1 in 7 set to -Infinity)
 *   | causal | padding (about 1 key in 4, never all) | all (the three at once).
 */
export function makeMasks(rs, kind, n_q, n_k) {
  const additive = () => {
    const data = Float32Array.from(rs.uniform(-2, 2, n_q * n_k));
    for (let i = 0; i < data.length; i++) if (rs.randomSample() < 1 / 7) data[i] = -Infinity;
    return { rows: n_q, cols: n_k, data };
  };
  const padding = () => {
    const flags = Array.from({ length: n_k }, () => (rs.randomSample() < 0.25 ? 1 : 0));
    if (flags.every((f) => f === 1)) flags[0] = 0;
    return flags;
  };
  switch (kind) {
    case 'none': return {};
    case 'additive': return { mask: additive() };
    case 'causal': return { causal: true };
    case 'padding': return { keyPaddingMask: padding() };
    case 'all': return { mask: additive(), causal: true, keyPaddingMask: padding() };
    default: throw new Error(`unknown mask kind ${kind}`);
  }
}

export const MASK_KINDS = ['none', 'additive', 'causal', 'padding', 'all'];

// ---- the error model -------------------------------------------------------
//
// u = 2^-24 is float32's unit roundoff: every float32 operation returns the
// exact result times (1 + e) with |e| <= u (round to nearest). All bounds
// below are first-order worst cases built from that, per element, from the
// float64 reference's own quantities, so a correct kernel can never exceed
// them while a wrong index, a missing term or a wrong scale misses by orders
// of magnitude. Measured errors sit 2x (sums of a few terms) to 1000x (sums
// of a thousand) below the bounds; the suite was also run once, by hand, against
// deliberately broken kernels (a dropped rescale of the running sum, a causal
// off-by-one, a 3e-5 error in exp's polynomial): each one fails dozens of tests.

export const U = 2 ** -24;
/** Smallest normal float32: what exp's flush to zero (below e^-87.3) can lose. */
export const TINY = 2 ** -126;
/** Smallest subnormal float32: twice what one product can lose to gradual underflow. */
export const ETA = 2 ** -149;

/** Higham's gamma_k: a float32 sum of k products is off by <= gamma_k sum |terms|. */
export const gamma = (k) => (k * U) / (1 - k * U);

/** Per element: |fl(A B) - A B| <= gamma_k (|A| |B|) + k ETA (underflow of the k products). */
export function matmulBound(A, B, { transposeB = false } = {}) {
  const k = ref.asMatrix(A).cols;
  const P = ref.matmul(ref.abs(A), ref.abs(B), { transposeB });
  return P.data.map((x) => gamma(k) * x + k * ETA);
}

/**
 * Softmax of a row of n, w_j = e_j / S with e_j = exp((x_j - max) / T):
 *   (x_j - max) / T   2 roundings: relative 2u, i.e. exp's argument y_j is
 *                     off by 2u|y_j|, which changes e_j by the factor 2u|y_j|
 *   exp               the kernel's polynomial is within 2 ulp of libm's expf
 *                     (src/softmax.c), itself within 1 ulp: 3u
 *   S = sum of e_j    n - 1 additions of positive terms: (n - 1)u
 *   1/S, e_j * (1/S)  2u
 * so |dw_j| <= w_j ((n + 4)u + 2u|y_j|) (+ what exp's flush to zero below
 * e^-87.3 loses); we allow w_j ((n + 10)u + 2u|y_j|) + TINY.
 */
export function softmaxBound(M, want, { temperature = 1 } = {}) {
  M = ref.asMatrix(M);
  const bound = new Float64Array(M.data.length);
  for (let i = 0; i < M.rows; i++) {
    let max = -Infinity;
    for (let j = 0; j < M.cols; j++) max = Math.max(max, ref.at(M, i, j));
    for (let j = 0; j < M.cols; j++) {
      const idx = i * M.cols + j;
      const y = max === -Infinity ? 0 : Math.abs(M.data[idx] - max) / temperature;
      bound[idx] = want.data[idx] * ((M.cols + 10) * U + 2 * U * (Number.isFinite(y) ? y : 0)) + TINY;
    }
  }
  return bound;
}

/**
 * Attention, per query row i, from the reference scores S, weights W:
 *   scores      s_ij = scale q_i.k_j + mask_ij: a dot product of d_k terms,
 *               then the scale and the mask: |ds_ij| <= (d_k + 2)u scale
 *               (|Q||K|^T)_ij + 2u|s_ij|; ds_i = the largest over visible j
 *   weights     a score error moves log w_j by ds_j - sum_l w_l ds_l, at most
 *               2 ds_i; then the softmax's own rounding as in softmaxBound
 *               with y_j = s_ij - max_i (n_k terms in the sum). The fused path
 *               (no weights) also rescales by exp(m_old - m_new) once per key
 *               tile of 128: 4u more per tile, and one more 1u|y_j| (the
 *               rescaling argument is never larger than y_j)
 *   output      out_ic = sum_j w_ij v_jc: n_k terms, so gamma_nk (W|V|)_ic,
 *               plus sum_j |dw_ij| |v_jc|, plus n_k ETA for products that
 *               underflow
 *   underflow   exp flushes results below e^-87.3 to 0: TINY per weight
 * A fully masked row has W = 0: its bound is only the underflow terms
 * (~1e-38); properties.test.js checks that such rows are exactly 0.
 * Inputs with bounds of their own (eQ, eK, eV: Float64Arrays in their
 * matrices' layout; multi-head attention's projections) add their
 * propagated errors: scale (eQ |K|^T + |Q| eK^T) to each score, W eV to
 * the output.
 */
export function attentionBound(Q, K, V, options, want, { eQ = null, eK = null, eV = null } = {}) {
  [Q, K, V] = [Q, K, V].map(ref.asMatrix);
  const [n_q, n_k, d_k, d_v] = [Q.rows, K.rows, Q.cols, V.cols];
  const scale = options.scale ?? 1 / Math.sqrt(d_k);
  const S = ref.scores(Q, K, options);
  const Sabs = ref.matmul(ref.abs(Q), ref.abs(K), { transposeB: true });
  // Inputs that carry errors (multi-head attention's projections) move each
  // score by scale (eQ |K|^T + |Q| eK^T) more.
  const Sin = eQ || eK ? productBound(Q, eQ, K, eK, { transposeB: true, terms: 0 }) : null;
  const W = want.weights;
  const tiles = Math.ceil(n_k / 128);
  const rel = new Float64Array(n_q * n_k); // relative error bound of w_ij
  for (let i = 0; i < n_q; i++) {
    let max = -Infinity;
    let ds = 0;
    for (let j = 0; j < n_k; j++) {
      const s = S.data[i * n_k + j];
      if (s === -Infinity) continue;
      max = Math.max(max, s);
      ds = Math.max(ds, (d_k + 2) * U * scale * Sabs.data[i * n_k + j] + 2 * U * Math.abs(s) +
        (Sin ? scale * Sin[i * n_k + j] : 0));
    }
    for (let j = 0; j < n_k; j++) {
      const s = S.data[i * n_k + j];
      const y = s === -Infinity ? 0 : max - s;
      rel[i * n_k + j] = 2 * ds + (n_k + 10 + 4 * tiles) * U + 3 * U * y;
    }
  }
  // + TINY: a weight below e^-87.3 (relative to the largest) is flushed to 0.
  const weights = W.data.map((w, idx) => w * rel[idx] + TINY);
  const output = new Float64Array(n_q * d_v);
  for (let i = 0; i < n_q; i++) {
    for (let c = 0; c < d_v; c++) {
      let b = 0;
      for (let j = 0; j < n_k; j++) {
        const idx = i * n_k + j;
        b += (weights[idx] + W.data[idx] * gamma(n_k)) * Math.abs(V.data[j * d_v + c]) +
          (eV ? W.data[idx] * eV[j * d_v + c] : 0);
      }
      output[i * d_v + c] = b + n_k * ETA; // + underflow of the n_k products
    }
  }
  return { output, weights };
}

// ---- the error model of the backward ------------------------------------------
//
// The same rules carried through each step of the gradients (per element,
// first order, from the float64 reference's quantities; tests/native/ref64.h
// states the same model for the native tests):
//   a product C = op(A) op(B) of k terms     gamma_k (|A| |B|) + eA |B| + |A| eB
//                                            + k ETA (productBound)
//   weights P                                attentionBound's; the fused
//     backward recomputes P = exp(s - lse), which adds P (ds + 2u |s - lse| +
//     3u |lse| + 7u): the score is rounded again (ds), lse was rounded three
//     times (m ln 2, + ln l, ln's own ulp), then a subtraction and exp (3u)
//   D_i = dO_i . O_i, dP = dO V^T            products of d_v terms (O carries
//                                            attentionBound's output bound)
//   dS = scale P (dP - D)                    scale (eP |dP - D| + P (edP + eD))
//                                            + 4u |dS| + 3 ETA
//   dQ = dS K, dK = dS^T Q, dV = P^T dO      products of n_k, n_q, n_q terms
//   softmax backward dx = y (dy - D) / T     (y eD + 3u |y (dy - D)| + ETA) / T
// Masked weights are exactly 0 with bound 0, so their gradients must be 0.
// A sum of several products into one result (dXkv = dK Wk^T + dV Wv^T)
// counts all their terms in k.

/**
 * Per element bound of op(A) op(B) (A, B matrices; eA, eB their bounds as
 * Float64Arrays in the same layout, or null); `terms` defaults to the inner
 * size. Returns a Float64Array (rows of op(A) x cols of op(B)).
 */
export function productBound(A, eA, B, eB, { transposeA = false, transposeB = false, terms } = {}) {
  A = ref.asMatrix(A);
  B = ref.asMatrix(B);
  const op = (M, t) => (t ? ref.transpose(M) : M);
  const a = op(A, transposeA);
  const k = terms ?? a.cols;
  const absA = ref.abs(a);
  const absB = ref.abs(B);
  const out = ref.matmul(absA, absB, { transposeB }).data.map((x) => gamma(k) * x + k * ETA);
  const add = (P) => P.data.forEach((x, i) => { out[i] += x; });
  if (eA) add(ref.matmul(op({ rows: A.rows, cols: A.cols, data: eA }, transposeA), absB, { transposeB }));
  if (eB) add(ref.matmul(absA, { rows: B.rows, cols: B.cols, data: eB }, { transposeB }));
  return out;
}

/** Bound of each column sum of M (bound eM or null): gamma_n sum |m| + sum eM. */
function columnSumsBound(M, eM) {
  M = ref.asMatrix(M);
  const out = new Float64Array(M.cols);
  for (let i = 0; i < M.rows; i++) {
    for (let c = 0; c < M.cols; c++) out[c] += gamma(M.rows) * Math.abs(ref.at(M, i, c)) + (eM ? eM[i * M.cols + c] : 0);
  }
  return out;
}

/** Bound of softmaxBackward(Y, dY) (Y and dY exact float32 inputs). */
export function softmaxBackwardBound(Y, dY, { temperature = 1 } = {}) {
  Y = ref.asMatrix(Y);
  dY = ref.asMatrix(dY);
  const bound = new Float64Array(Y.data.length);
  for (let i = 0; i < Y.rows; i++) {
    let D = 0;
    let absD = 0;
    for (let j = 0; j < Y.cols; j++) {
      D += ref.at(Y, i, j) * ref.at(dY, i, j);
      absD += Math.abs(ref.at(Y, i, j) * ref.at(dY, i, j));
    }
    const eD = gamma(Y.cols) * absD + Y.cols * ETA;
    for (let j = 0; j < Y.cols; j++) {
      const y = ref.at(Y, i, j);
      const g = y * (ref.at(dY, i, j) - D);
      bound[i * Y.cols + j] = y > 0 ? (y * eD + 3 * U * Math.abs(g) + ETA) / temperature + ETA : 0;
    }
  }
  return bound;
}

/**
 * Bounds of attentionBackward's dQ, dK, dV ({fused}: from the log-sum-exp,
 * else from stored weights); want = ref.attentionBackward(Q, K, V, dO,
 * options). Inputs may carry bounds (eQ, eK, eV, edO: multi-head attention).
 */
export function attentionBackwardBound(Q, K, V, dO, options, want, { fused = false, eQ = null, eK = null, eV = null, edO = null } = {}) {
  [Q, K, V, dO] = [Q, K, V, dO].map(ref.asMatrix);
  const [n_q, n_k, d_v] = [Q.rows, K.rows, V.cols];
  const scale = options.scale ?? 1 / Math.sqrt(Q.cols);
  const fwd = attentionBound(Q, K, V, options, want, { eQ, eK, eV });
  const P = want.weights;
  const eP = fwd.weights.map((e, idx) => (P.data[idx] === 0 ? 0 : e));
  if (fused) {
    const S = ref.scores(Q, K, options);
    const Sabs = ref.matmul(ref.abs(Q), ref.abs(K), { transposeB: true });
    const Sin = eQ || eK ? productBound(Q, eQ, K, eK, { transposeB: true, terms: 0 }) : null;
    for (let i = 0; i < n_q; i++) {
      let max = -Infinity;
      for (let j = 0; j < n_k; j++) max = Math.max(max, S.data[i * n_k + j]);
      if (max === -Infinity) continue;
      let l = 0;
      for (let j = 0; j < n_k; j++) l += Math.exp(S.data[i * n_k + j] - max);
      const lse = max + Math.log(l);
      for (let j = 0; j < n_k; j++) {
        const idx = i * n_k + j;
        const s = S.data[idx];
        if (s === -Infinity) continue;
        const ds = (Q.cols + 2) * U * scale * Sabs.data[idx] + 2 * U * Math.abs(s) + (Sin ? scale * Sin[idx] : 0);
        eP[idx] += P.data[idx] * (ds + 2 * U * Math.abs(s - lse) + 3 * U * Math.abs(lse) + 7 * U);
      }
    }
  }
  const dP = ref.matmul(dO, V, { transposeB: true });
  const edP = productBound(dO, edO, V, eV, { transposeB: true });
  const O = want.output;
  const edS = new Float64Array(n_q * n_k);
  for (let i = 0; i < n_q; i++) {
    let D = 0;
    let eD = d_v * ETA;
    for (let c = 0; c < d_v; c++) {
      const [o, g] = [O.data[i * d_v + c], dO.data[i * d_v + c]];
      D += g * o;
      eD += gamma(d_v) * Math.abs(g * o) + Math.abs(g) * fwd.output[i * d_v + c] + (edO ? edO[i * d_v + c] * Math.abs(o) : 0);
    }
    for (let j = 0; j < n_k; j++) {
      const idx = i * n_k + j;
      if (P.data[idx] === 0 && eP[idx] === 0) continue; // masked: exactly 0
      edS[idx] = scale * (eP[idx] * Math.abs(dP.data[idx] - D) + P.data[idx] * (edP[idx] + eD)) +
        4 * U * Math.abs(want.dScores.data[idx]) + 3 * ETA;
    }
  }
  return {
    dQ: productBound(want.dScores, edS, K, eK),
    dK: productBound(want.dScores, edS, Q, eQ, { transposeA: true }),
    dV: productBound(P, eP, dO, edO, { transposeA: true }),
  };
}

/** Bounds of (X W + b) (X exact, n x d): gamma_(d+1) (|X| |W| + |b|). */
function projectionBound(X, W, b) {
  const e = productBound(X, null, W, null, { terms: ref.asMatrix(X).cols + 1 });
  if (b) e.forEach((_, idx) => { e[idx] += gamma(ref.asMatrix(X).cols + 1) * Math.abs(b[idx % b.length]); });
  return e;
}

/** Columns c0 .. c0+width of a bound laid out as rows x cols. */
const boundColumns = (e, rows, cols, c0, width) => ref.columns({ rows, cols, data: e }, c0, width).data;

/**
 * Bounds of every gradient of multiHeadAttentionBackward, chained from the
 * projections (Q, K, V carry projectionBound) through each head's forward
 * (attentionBound, Z) and backward (attentionBackwardBound) to the
 * parameter and input gradients (products). want =
 * ref.multiHeadAttentionBackward(Xq, Xkv, dY, options).
 */
export function mhaBackwardBound(Xq, Xkv, dY, options, want, { fused = false } = {}) {
  const { heads, Wq, Wk, Wv, Wo, bq, bk, bv } = options;
  const self = !Xkv;
  Xq = ref.asMatrix(Xq);
  Xkv = self ? Xq : ref.asMatrix(Xkv);
  const { Q, K, V, Z } = want.forward;
  const [n_q, n_k, d] = [Xq.rows, Xkv.rows, Xq.cols];
  const dh = d / heads;
  const [eQ, eK, eV] = [projectionBound(Xq, Wq, bq), projectionBound(Xkv, Wk, bk), projectionBound(Xkv, Wv, bv)];
  const edZ = productBound(dY, null, Wo, null, { transposeB: true });
  const [eZ, edQ, edK, edV] = [n_q, n_q, n_k, n_k].map((n) => new Float64Array(n * d));
  const put = (whole, part, rows, h) => {
    for (let i = 0; i < rows; i++) for (let c = 0; c < dh; c++) whole[i * d + h * dh + c] = part[i * dh + c];
  };
  for (let h = 0; h < heads; h++) {
    const cols = (M) => ref.columns(M, h * dh, dh);
    const e = (E, rows) => boundColumns(E, rows, d, h * dh, dh);
    const inputs = { eQ: e(eQ, n_q), eK: e(eK, n_k), eV: e(eV, n_k) };
    const opts = { scale: 1 / Math.sqrt(dh), mask: options.mask, causal: options.causal, keyPaddingMask: options.keyPaddingMask };
    const g = want.perHead[h];
    put(eZ, attentionBound(cols(Q), cols(K), cols(V), opts, g, inputs).output, n_q, h);
    const b = attentionBackwardBound(cols(Q), cols(K), cols(V), cols(want.dZ), opts, g, { fused, ...inputs, edO: e(edZ, n_q) });
    put(edQ, b.dQ, n_q, h);
    put(edK, b.dK, n_k, h);
    put(edV, b.dV, n_k, h);
  }
  const across = self ? 3 * d : 2 * d; // terms summed into dX
  const dX = (G, eG, W, terms) => productBound(G, eG, W, null, { transposeB: true, terms });
  const sum = (a, b) => a.map((x, i) => x + b[i]);
  const dXq = dX(want.dQ, edQ, Wq, self ? across : d);
  const dXkv = sum(dX(want.dK, edK, Wk, across), dX(want.dV, edV, Wv, across));
  return {
    dXq: self ? sum(dXq, dXkv) : dXq,
    dXkv: self ? null : dXkv,
    dWq: productBound(Xq, null, want.dQ, edQ, { transposeA: true }),
    dWk: productBound(Xkv, null, want.dK, edK, { transposeA: true }),
    dWv: productBound(Xkv, null, want.dV, edV, { transposeA: true }),
    dWo: productBound(Z, eZ, dY, null, { transposeA: true }),
    dbq: columnSumsBound(want.dQ, edQ), dbk: columnSumsBound(want.dK, edK),
    dbv: columnSumsBound(want.dV, edV), dbo: columnSumsBound(dY, null),
  };
}

/**
 * linearAttention (FAVOR+) against ref.linearAttention with the same
 * features omega, per element. The kernel computes each feature as exp of
 * an exponent e - (a stabiliser); a float32 error de in it is a relative
 * error de in the feature:
 *   w.x'        d_k products and sums, x' = sqrt(s) x rounded, and the
 *               extra column of the GEMM: (d_k + 3)u sum_c |w_c x'_c|
 *   |x'|^2/2    (keys) (d_k + 3)u |x'|^2/2
 *   stabiliser  keys subtract their feature's maximum M_r (u|e - M_r|);
 *               queries add M_r and subtract the row's largest (u|M_r| and
 *               u times their distance to it); every chunk of 64 keys that
 *               raises an M_r rescales: u|M_r| + 3u each
 *   exp         3u (the kernels' polynomial, 2 ulp, and its rounding)
 * Each product phi(q).phi(k) then errs by eq + ek; the sums over m features
 * and n_k keys add (m + n_k + 4)u. The output is a ratio N/D of sums of
 * positive terms: |d out_c| <= (sum_j w_j |v_jc| + |out_c|) E + u|out_c|
 * with E = eq + ek + (m + n_k + 4)u. Allowed: twice that, plus TINY.
 */
export function linearBound(Q, K, V, omega, { scale, causal = false } = {}, want) {
  [Q, K, V, omega] = [Q, K, V, omega].map(ref.asMatrix);
  const [n_q, n_k, d, d_v, m] = [Q.rows, K.rows, Q.cols, V.cols, omega.rows];
  const root = Math.sqrt(scale ?? 1 / Math.sqrt(d));
  // Row i of X: its largest sum_c |w_rc x'_c|, |x'|^2/2, and exponents w_r.x' (- |x'|^2/2 for keys).
  const stats = (X, i, key) => {
    let h = 0, pa = 0;
    for (let c = 0; c < d; c++) h += (root * ref.at(X, i, c)) ** 2;
    const e = [];
    for (let r = 0; r < m; r++) {
      let p = 0, a = 0;
      for (let c = 0; c < d; c++) {
        const t = ref.at(omega, r, c) * root * ref.at(X, i, c);
        p += t;
        a += Math.abs(t);
      }
      pa = Math.max(pa, a);
      e.push(key ? p - h / 2 : p);
    }
    return { pa, h: key ? h / 2 : 0, e };
  };
  const keys = Array.from({ length: n_k }, (_, j) => stats(K, j, true));
  const M = Array.from({ length: m }, (_, r) => Math.max(...keys.map((k) => k.e[r])));
  const Mabs = Math.max(...M.map(Math.abs));
  let ek = 0;
  for (const k of keys) {
    const spread = Math.max(...k.e.map((e, r) => Math.abs(e - M[r])));
    ek = Math.max(ek, (d + 3) * U * (k.pa + k.h) + U * spread);
  }
  ek += (Math.ceil(n_k / 64) + 2) * (U * Mabs + 3 * U);
  const W = want.weights;
  const bound = new Float64Array(n_q * d_v);
  for (let i = 0; i < n_q; i++) {
    const q = stats(Q, i, false);
    const x = q.e.map((e, r) => e + M[r]);
    const top = Math.max(...x);
    const eq = (d + 3) * U * q.pa + U * Mabs + U * Math.max(...x.map((v) => top - v)) + 3 * U;
    const E = eq + ek + (m + n_k + 4) * U;
    for (let c = 0; c < d_v; c++) {
      let wv = 0;
      for (let j = 0; j < (causal ? Math.min(i + 1, n_k) : n_k); j++) wv += W.data[i * n_k + j] * Math.abs(V.data[j * d_v + c]);
      const out = Math.abs(want.output.data[i * d_v + c]);
      bound[i * d_v + c] = 2 * ((wv + out) * E + U * out) + TINY;
    }
  }
  return bound;
}

/**
 * A normwise tolerance: every element may be off by rtol times the largest
 * |value| of its row ('row') or of the whole result ('all'). Used where a
 * chain of float32 stages (multi-head attention: projection, attention,
 * output projection) makes the per-element model long; rtol is then stated
 * at the call.
 */
export function relBound(want, rtol, per = 'all') {
  want = ref.asMatrix(want);
  const bound = new Float64Array(want.data.length);
  let all = 0;
  for (const x of want.data) all = Math.max(all, Math.abs(x));
  for (let i = 0; i < want.rows; i++) {
    let m = 0;
    for (let j = 0; j < want.cols; j++) m = Math.max(m, Math.abs(ref.at(want, i, j)));
    for (let j = 0; j < want.cols; j++) bound[i * want.cols + j] = rtol * (per === 'row' ? m : all);
  }
  return bound;
}

// ---- comparisons -------------------------------------------------------------

/** Largest |got - want| / bound over all elements (Infinity for NaN). */
export function errorRatio(got, want, bound) {
  let worst = 0;
  for (let idx = 0; idx < want.data.length; idx++) {
    const b = typeof bound === 'number' ? bound : bound[idx];
    const err = Math.abs(got.data[idx] - want.data[idx]);
    const r = err === 0 ? 0 : err / b;
    worst = Number.isNaN(r) ? Infinity : Math.max(worst, r);
  }
  return worst;
}

/**
 * Asserts got (an API result) equals want (the reference) within bound: a
 * number (absolute, every element) or one bound per element. The message
 * gives `label` (which carries the seed), how many elements failed, and the
 * worst one.
 */
export function assertClose(got, want, bound, label) {
  assert.ok(got && got.data instanceof Float32Array, `${label}: result data is not a Float32Array`);
  assert.equal(got.rows, want.rows, `${label}: rows`);
  assert.equal(got.cols, want.cols, `${label}: cols`);
  assert.equal(got.data.length, want.rows * want.cols, `${label}: data length`);
  let bad = 0;
  let worst = null;
  for (let idx = 0; idx < want.data.length; idx++) {
    const b = typeof bound === 'number' ? bound : bound[idx];
    const [g, w] = [got.data[idx], want.data[idx]];
    const err = Math.abs(g - w);
    if (err <= b || g === w) continue; // g === w: equal infinities
    bad++;
    const ratio = Number.isNaN(err) ? Infinity : err / b;
    if (!worst || ratio > worst.ratio) worst = { idx, g, w, err, b, ratio };
  }
  if (worst) {
    const [i, j] = [Math.floor(worst.idx / want.cols), worst.idx % want.cols];
    assert.fail(
      `${label}: ${bad} of ${want.data.length} values outside tolerance; worst at [${i}][${j}]: ` +
        `got ${worst.g}, expected ${worst.w}, |error| ${worst.err.toExponential(3)} > allowed ${worst.b.toExponential(3)}`,
    );
  }
}

/** Every value finite. */
export function assertFinite(M, label) {
  const idx = M.data.findIndex((x) => !Number.isFinite(x));
  if (idx >= 0) {
    assert.fail(`${label}: non-finite ${M.data[idx]} at [${Math.floor(idx / M.cols)}][${idx % M.cols}]`);
  }
}

/** Each row of W sums to 1 within tol (or is all zero, when allowed for that row). */
export function assertRowsSumToOne(W, tol, label, { zeroRows = [] } = {}) {
  for (let i = 0; i < W.rows; i++) {
    let sum = 0;
    for (let j = 0; j < W.cols; j++) sum += W.data[i * W.cols + j];
    if (zeroRows.includes(i)) {
      assert.equal(sum, 0, `${label}: row ${i} should be all zero (fully masked), sums to ${sum}`);
    } else if (!(Math.abs(sum - 1) <= tol)) {
      assert.fail(`${label}: row ${i} sums to ${sum}, |sum - 1| = ${Math.abs(sum - 1).toExponential(3)} > ${tol}`);
    }
  }
}

/** A result's data owns a buffer of its own (not a view into wasm memory). */
export function assertFresh(M, label) {
  assert.ok(M.data instanceof Float32Array, `${label}: not a Float32Array`);
  assert.equal(M.data.byteOffset, 0, `${label}: data is a view at an offset`);
  assert.equal(M.data.buffer.byteLength, M.data.byteLength, `${label}: data is a view into a larger buffer`);
}

/** Float32 copy of a reference matrix (to feed an API call). */
export function f32(M) {
  M = ref.asMatrix(M);
  return { rows: M.rows, cols: M.cols, data: Float32Array.from(M.data) };
}
