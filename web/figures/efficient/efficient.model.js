// efficient.model.js: two answers to attention's N^2 cost, computed by the
// kernels on a small example and measured as N grows.
//
//   sliding window (Longformer): query i sees keys j with |i - j| <= w, and
//     global tokens see and are seen by everything. The fused kernel
//     computes scores in tiles of TILE queries by TILE keys and skips the
//     tiles that hold no visible pair (`windowTiles` counts the rest):
//     time ~ N d times whole tiles of keys, not N (2w + 1) d.
//   Performer (FAVOR+): m positive random features phi with
//     phi(q).phi(k) ~ exp(q.k / sqrt(d)), so softmax(QK^T)V becomes
//     phi(Q) (phi(K)^T V), never N x N: time ~ N m d, an estimate.
// `windowPattern` and `performerPattern` give the weight patterns of the
// small example (the Performer's weights are linearAttention's output for
// V = I: row i of the output is then query i's weights over the keys);
// `featureErrors` follows the Performer's error as m grows, averaged over
// SEEDS draws of the features (the figure's caption and plot both read it);
// `sweep` times the three as N doubles (in a Web Worker: efficient.worker.js).
import { normalMatrix } from '../../kit/random.js';
import { identity } from '../../kit/mat.js';
import { timeCall } from '../../kit/workers/timing.js';
import { timeAsync, withCores } from '../../kit/workers/cores.js';

export const N_TOKENS = 32;
export const D = 16;
export const FEATURE_COUNTS = [4, 8, 16, 32, 64, 128, 256, 512, 1024];
export const MECHANISMS = ['full', 'window', 'linear'];
/** Full attention on every core, through an attentionPool (kit/workers/cores.js): its results' mechanism. */
export const CORES = 'cores';
export const FIRST_N = 256;
/** The sweep's window and feature count (the text quotes them). */
export const SWEEP = { window: 32, features: 64, d: 32 };

let cached = null;
/** The example's tokens: sinusoidal positions plus noise, so attention is mostly local (as in text). */
export function tokens(attn) {
  if (cached?.attn === attn) return cached.X;
  const P = attn.positionalEncoding(N_TOKENS, D);
  const noise = normalMatrix(N_TOKENS, D, 0xeff1c, 0.3);
  const data = P.data.map((p, k) => p + noise.data[k]);
  cached = { attn, X: { rows: N_TOKENS, cols: D, data } };
  return cached.X;
}

/**
 * A list of global tokens as text -> {positions, ignored}: the distinct
 * positions inside the example, sorted, and the parts that name none.
 * `first` is the number of the first token: 0 in the attribute ("0,5"), 1
 * where a reader types them (the figure numbers tokens from 1, as its matrices' read-outs do).
 */
export function readGlobal(text, first = 0) {
  const out = new Set();
  const ignored = [];
  for (const raw of String(text ?? '').split(/[,\s]+/)) {
    if (raw === '') continue;
    const p = Number(raw) - first;
    if (Number.isInteger(p) && p >= 0 && p < N_TOKENS) out.add(p);
    else ignored.push(raw);
  }
  return { positions: [...out].sort((a, b) => a - b), ignored };
}

/** "0,5" -> [0, 5]: the attribute's global positions (from 0). */
export const parseGlobal = (text) => readGlobal(text).positions;

/** -Infinity where the window (with global tokens) hides key j from query i: the same rule as an additive mask. */
export function windowMask(n, window, global) {
  const g = new Set(global);
  const data = new Float32Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) if (Math.abs(i - j) > window && !g.has(i) && !g.has(j)) data[i * n + j] = -Infinity;
  }
  return { rows: n, cols: n, data };
}

/** Half the L1 distance between two weight rows, averaged over rows: the share of weight put on the wrong keys. */
export function misplaced(A, B) {
  let total = 0;
  for (let i = 0; i < A.rows; i++) {
    let d = 0;
    for (let j = 0; j < A.cols; j++) d += Math.abs(A.data[i * A.cols + j] - B.data[i * B.cols + j]);
    total += d / 2;
  }
  return total / A.rows;
}

/** The share of each row's exact weight that falls on keys the window keeps, averaged. */
function kept(exact, mask) {
  let total = 0;
  exact.data.forEach((w, k) => { if (mask.data[k] === 0) total += w; });
  return total / exact.rows;
}

/** The Performer's implicit weights (n x n) for m features and a seed. */
export function performerWeights(attn, X, features, seed) {
  return attn.linearAttention(X, X, identity(X.rows), { features, seed }).output;
}

/** Full attention's weights on the example (computed once per engine). */
export function exactWeights(attn) {
  const X = tokens(attn);
  cached.exact ??= attn.attention(X, X, X).weights;
  return cached.exact;
}

/**
 * The window's pattern for window w and global tokens: {windowed, masked,
 * windowGap, kept}: the window's weights, full attention's under the
 * window's mask, the largest difference between the two, and the share of
 * full attention's weight the window keeps.
 */
export function windowPattern(attn, { window, global = [] }) {
  const X = tokens(attn);
  const mask = windowMask(X.rows, window, global);
  const windowed = attn.attention(X, X, X, { window, globalTokens: global }).weights;
  const masked = attn.attention(X, X, X, { mask }).weights;
  let windowGap = 0;
  windowed.data.forEach((w, k) => { windowGap = Math.max(windowGap, Math.abs(w - masked.data[k])); });
  return { windowed, masked, windowGap, kept: kept(exactWeights(attn), mask) };
}

/** The Performer's pattern for m features, one draw (`seed`): {performer, misplaced} (this draw's misplaced weight). */
export function performerPattern(attn, { features, seed = 1 }) {
  const performer = performerWeights(attn, tokens(attn), features, seed);
  return { performer, misplaced: misplaced(performer, exactWeights(attn)) };
}

/** All three patterns (the tests' view of the figure): exact, windowPattern and performerPattern's, misplacedPerformer. */
export function example(attn, { window, global = [], features, seed = 1 }) {
  const { performer, misplaced: misplacedPerformer } = performerPattern(attn, { features, seed });
  return { exact: exactWeights(attn), ...windowPattern(attn, { window, global }), performer, misplacedPerformer };
}

/** How many draws of the features the Performer's error is averaged over. */
export const SEEDS = 6;

/**
 * The Performer at m features: {m, error, drawn}: its misplaced weight
 * averaged over `seeds` draws of the features (seeds 1..seeds), and the
 * first draw's weights (the one the figure draws). Kept per engine.
 */
export function featureError(attn, m, seeds = SEEDS) {
  const X = tokens(attn);
  const kept = (cached.errors ??= new Map());
  const key = `${m}|${seeds}`;
  if (!kept.has(key)) {
    const exact = exactWeights(attn);
    let sum = 0;
    let drawn = null;
    for (let s = 1; s <= seeds; s++) {
      const W = performerWeights(attn, X, m, s);
      drawn ??= W;
      sum += misplaced(W, exact);
    }
    kept.set(key, { m, error: sum / seeds, drawn });
  }
  return kept.get(key);
}

/** featureError at each feature count: the error curve. */
export const featureErrors = (attn, { counts = FEATURE_COUNTS, seeds = SEEDS } = {}) => counts.map((m) => featureError(attn, m, seeds));

// ---- what the window costs in the kernel ------------------------------------

/** The fused kernel's tiles: blocks of TILE queries against tiles of TILE keys (src/attention.c: BQ, BK). */
export const TILE = 128;

/**
 * How many TILE x TILE tiles of scores the fused kernel computes for window
 * w with global tokens at N: the tiles that hold at least one (query, key)
 * pair the window lets through; it skips the others whole (src/mask.c,
 * attn__tile_hidden). A tile's hidden scores are computed and then dropped,
 * so the band of 2w + 1 keys costs whole tiles of keys, and a global token
 * costs the whole row of tiles of its query block (its block sees every key)
 * and the whole column of its key tile (every query sees it).
 */
export function windowTiles(n, window, global = []) {
  const blocks = Math.ceil(n / TILE);
  const open = new Set(global.map((p) => Math.floor(p / TILE)));
  let tiles = 0;
  for (let b = 0; b < blocks; b++) {
    for (let c = 0; c < blocks; c++) {
      // the smallest |i - j| between the block's queries and the tile's keys
      const gap = b === c ? 0 : (Math.abs(b - c) - 1) * TILE + 1;
      if (gap <= window || open.has(b) || open.has(c)) tiles++;
    }
  }
  return tiles;
}

/** Least-squares slope of log y against log x: the exponent of a power law. */
export function slope(points, x = 'n', y = 'ms') {
  const pts = points.filter((p) => p[x] > 0 && p[y] > 0).map((p) => [Math.log(p[x]), Math.log(p[y])]);
  if (pts.length < 2) return NaN;
  const mx = pts.reduce((s, p) => s + p[0], 0) / pts.length;
  const my = pts.reduce((s, p) => s + p[1], 0) / pts.length;
  let num = 0, den = 0;
  for (const [a, b] of pts) {
    num += (a - mx) * (b - my);
    den += (a - mx) ** 2;
  }
  return num / den;
}

// ---- the sweep ------------------------------------------------------------

const BUDGET_MS = 20000, RUN_CAP_MS = 4000;

/** How time grows with N for each mechanism, to predict the next run. */
export const EXPONENT = { full: 2, window: 1, linear: 1 };

const inputCache = { n: 0, X: null };
function sweepInputs(n, d) {
  if (inputCache.n !== n) Object.assign(inputCache, { n, X: normalMatrix(n, d, 0x5eed) });
  return inputCache.X;
}

/** One call of `mechanism` at size n, timed: {ms, bytes} (timing.js: in batches of at least minMs). */
export function measure(attn, mechanism, n, { d = SWEEP.d, repeats = 1, minMs = 10, now = () => performance.now() } = {}) {
  const X = sweepInputs(n, d);
  const call = {
    full: () => attn.attention(X, X, X, { weights: false }),
    window: () => attn.attention(X, X, X, { weights: false, window: SWEEP.window }),
    linear: () => attn.linearAttention(X, X, X, { features: SWEEP.features }),
  }[mechanism];
  return timeCall(attn, call, { repeats, minMs, now });
}

/**
 * Generator: for N = FIRST_N, 2 FIRST_N, ... maxN and each mechanism, yields
 * {mechanism, n, ms, bytes}, or {mechanism, n, skipped: 'skipRunTime', predictedMs}
 * or {mechanism, n, skipped: 'skipBudget'} (keys of efficient.strings.en.js) once a run is
 * predicted (from the last one and EXPONENT) past runCapMs or the budget left.
 */
export function* sweep(attn, { maxN = 16384, budgetMs = BUDGET_MS, runCapMs = RUN_CAP_MS, now = () => performance.now() } = {}) {
  const start = now();
  const last = {};
  const stopped = new Set();
  // warm up: long enough for the engine to swap in its optimised code
  for (const mechanism of MECHANISMS) measure(attn, mechanism, FIRST_N, { minMs: 50, now });
  for (let n = FIRST_N; n <= maxN; n *= 2) {
    for (const mechanism of MECHANISMS) {
      if (stopped.has(mechanism)) continue;
      const guess = last[mechanism] ? last[mechanism].ms * (n / last[mechanism].n) ** EXPONENT[mechanism] : 0;
      const left = budgetMs - (now() - start);
      if (guess > Math.min(runCapMs, left)) {
        stopped.add(mechanism);
        yield { mechanism, n, ...(guess > runCapMs ? { skipped: 'skipRunTime', predictedMs: guess } : { skipped: 'skipBudget' }) };
        continue;
      }
      const r = measure(attn, mechanism, n, { repeats: guess < 200 ? 3 : 1, now });
      last[mechanism] = { n, ms: r.ms };
      yield { mechanism, n, ...r };
    }
  }
}

/**
 * Async generator: sweep()'s results and, after each N's full attention,
 * the same call through `pool` (an attentionPool, or null: sweep() alone):
 * {mechanism: CORES, n, cores, ms} (no bytes: the memory is the workers'),
 * or {mechanism: CORES, n, skipped} once that series stops, by sweep()'s rules.
 */
export function sweepWithCores(attn, pool, { budgetMs = BUDGET_MS, runCapMs = RUN_CAP_MS, now = () => performance.now(), ...rest } = {}) {
  const call = (n) => {
    const X = sweepInputs(n, SWEEP.d);
    return () => pool.attention(X, X, X, { weights: false });
  };
  return withCores(sweep(attn, { budgetMs, runCapMs, now, ...rest }), {
    pool, budgetMs, runCapMs, now, exponent: EXPONENT.full,
    after: (r) => r.mechanism === 'full',
    make: (r, x) => ({ mechanism: CORES, ...x }),
    measure: (n, repeats) => timeAsync(call(n), { repeats, now }),
    // at an N the pool splits (N = 1024), for 50 ms
    warm: async () => {
      const run = call(1024);
      const t0 = now();
      for (let k = 0; k < 50 && (k < 2 || now() - t0 < 50); k++) await run();
    },
  });
}
