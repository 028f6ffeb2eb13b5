// cost.model.js: what attention costs as the sequence grows, measured.
//
// Two kernels compute the same softmax(Q K^T / sqrt(d)) V:
//   plain  materializes the N x N weight matrix (asked for with weights: true)
//   fused  walks over tiles of keys with a running max and sum and never
//          holds more than a few tiles (weights: false)
// each in the SIMD and the scalar build. `sweep` doubles N from 256 up to a
// limit and measures time (performance.now) and peak wasm memory (the
// engine's memoryPeak(): every byte a call holds, inputs and workspace
// included). A variant stops when its next run would not fit the time
// budget, predicted from its last run and time growing like N^2. Every
// kernel of every build is warmed up before the first measurement; calls
// are timed in batches (timing.js). `sweepWithCores` adds the fused kernel
// of the best build on every core (kit/workers/cores.js: an attentionPool).
import { normalMatrix } from '../../kit/random.js';
import { timeCall } from '../../kit/workers/timing.js';
import { timeAsync, withCores } from '../../kit/workers/cores.js';

export const KERNELS = ['fused', 'plain'];
export const BUILDS = ['simd', 'scalar'];
/** The series on every core: the best build's fused kernel through an attentionPool (its results' build). */
export const CORES = 'cores';
export const FIRST_N = 256;
/** wasm memory the engine may grow to (build.sh: -sMAXIMUM_MEMORY=2GB). */
export const WASM_BYTES = 2 ** 31;

/** Whether the plain kernel's N x N weights (and the inputs) can fit at all. */
export const plainFits = (n, d) => 4 * n * n + 16 * n * d < WASM_BYTES;

/** Sizes from FIRST_N doubling up to maxN. */
export function sizes(maxN) {
  const out = [];
  for (let n = FIRST_N; n <= maxN; n *= 2) out.push(n);
  return out;
}

const cache = { key: '', X: null };
/** The same seeded N x d inputs for every variant (Q = K = V = X). */
function inputs(n, d) {
  if (cache.key !== `${n}x${d}`) Object.assign(cache, { key: `${n}x${d}`, X: normalMatrix(n, d, 0xc057) });
  return cache.X;
}

/**
 * One call, timed: {ms, bytes} (timing.js: the fastest of `repeats` batches
 * of at least 10 ms), or {skipped} when it cannot run. `skipped` is why, as a
 * key of cost.strings.en.js (skipWasm, skipWeights with {gib}, skipRunTime with
 * {predictedMs}, skipBudget): the figure words it.
 */
export function measure(attn, { n, d, kernel, repeats = 1, now = () => performance.now() }) {
  const X = inputs(n, d);
  try {
    return timeCall(attn, () => attn.attention(X, X, X, { weights: kernel === 'plain' }), { repeats, now });
  } catch (err) {
    if (err instanceof RangeError) return { skipped: 'skipWasm' };
    throw err;
  }
}

/** Milliseconds each kernel runs before the sweep starts timing it. */
export const WARM_MS = 40;

/**
 * Run every kernel for a while before timing any: the engine first runs new
 * wasm code unoptimized and swaps in optimized code only after some use, so
 * a kernel's first calls would be timed slow.
 */
function warmUp(attn, d, now) {
  for (const kernel of KERNELS) {
    const t0 = now();
    for (let k = 0; k < 100 && (k < 2 || now() - t0 < WARM_MS); k++) measure(attn, { n: FIRST_N, d, kernel, now });
  }
}

const BUDGET_MS = 30000, RUN_CAP_MS = 6000;

/** Time predicted for size n from the variant's last result (time ~ N^2). */
export const predict = (last, n) => last.ms * (n / last.n) ** 2;

/**
 * Generator: for each N and each variant (engines: {simd?, scalar}), yields
 * {build, kernel, n, d, ms, bytes} or {build, kernel, n, d, skipped}. Stops a
 * variant once a run would pass `runCapMs` or the time left of `budgetMs`.
 */
export function* sweep(engines, { maxN = 8192, d = 32, budgetMs = BUDGET_MS, runCapMs = RUN_CAP_MS, now = () => performance.now() } = {}) {
  const start = now();
  const last = {};
  const stopped = new Set();
  for (const build of BUILDS) if (engines[build]) warmUp(engines[build], d, now);
  for (const n of sizes(maxN)) {
    for (const build of BUILDS) {
      if (!engines[build]) continue;
      for (const kernel of KERNELS) {
        const id = `${build}/${kernel}`;
        if (stopped.has(id)) continue;
        if (kernel === 'plain' && !plainFits(n, d)) {
          stopped.add(id);
          yield { build, kernel, n, d, skipped: 'skipWeights', gib: Math.round((4 * n * n) / 2 ** 30) };
          continue;
        }
        const left = budgetMs - (now() - start);
        const guess = last[id] ? predict(last[id], n) : 0;
        if (guess > Math.min(runCapMs, left)) {
          stopped.add(id);
          yield { build, kernel, n, d, ...(guess > runCapMs ? { skipped: 'skipRunTime', predictedMs: guess } : { skipped: 'skipBudget' }) };
          continue;
        }
        const repeats = guess < 30 ? 5 : guess < 300 ? 2 : 1;
        const r = measure(engines[build], { n, d, kernel, repeats, now });
        if (r.skipped) stopped.add(id);
        else last[id] = { n, ms: r.ms };
        yield { build, kernel, n, d, ...r };
      }
    }
  }
}

/**
 * Async generator: sweep()'s results and, after each N's fused run of the
 * best build (SIMD, or scalar where there is none), the same call through
 * `pool` (an attentionPool, or null: sweep() alone): {build: CORES, kernel:
 * 'fused', n, d, cores, ms} (no bytes: the memory is the workers'), or
 * {..., skipped} once that series stops, by sweep()'s rules.
 */
export function sweepWithCores(engines, pool, { d = 32, budgetMs = BUDGET_MS, runCapMs = RUN_CAP_MS, now = () => performance.now(), ...rest } = {}) {
  const best = engines.simd ? 'simd' : 'scalar';
  const call = (n) => {
    const X = inputs(n, d);
    return () => pool.attention(X, X, X, { weights: false });
  };
  return withCores(sweep(engines, { d, budgetMs, runCapMs, now, ...rest }), {
    pool, budgetMs, runCapMs, now,
    after: (r) => r.build === best && r.kernel === 'fused',
    make: (r, x) => ({ build: CORES, kernel: 'fused', d, ...x }),
    measure: (n, repeats) => timeAsync(call(n), { repeats, now }),
    // at an N the pool splits, for WARM_MS: N = 2048 is 268 MFLOP or more at every d,
    // past where api/pool.js's SPLIT_FLOPS splits attention in a browser (256) and in Node
    warm: async () => {
      const run = call(2048);
      const t0 = now();
      for (let k = 0; k < 50 && (k < 2 || now() - t0 < WARM_MS); k++) await run();
    },
  });
}
