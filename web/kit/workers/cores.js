// cores.js: the measuring figures' "on N cores" series (cost, efficient):
// the fused kernel of the sweep's best build, the same call, through an
// attentionPool of a worker per core the browser reports, beside its time on
// one. Started inside the figure's own measuring worker (the pool's workers
// are that worker's; they end with it), from the compiled module the page
// posted it. The pool splits a call by query rows and returns the engine's
// bits; a call too small for messages to pay runs on one core (api/pool.js).

import { attentionPool } from '../../attention.js';

/** The cores the browser reports (navigator.hardwareConcurrency), at least 1. */
export const cores = () => Math.max(1, globalThis.navigator?.hardwareConcurrency ?? 1);

/**
 * A pool of a worker per core from `module` (the attention part), or null
 * where there is one core, or where this worker cannot start workers of its
 * own (the series is then left out, not failed).
 */
export async function corePool(module, { workers = cores() } = {}) {
  if (workers < 2) return null;
  try {
    return await attentionPool({ module, parts: 'attention', workers });
  } catch {
    return null;
  }
}

/**
 * `call()` (a promise) timed: {ms}, the fastest of `repeats` batches, a
 * batch calling it until at least minMs have passed (timing.js's rule, for
 * calls that resolve later).
 */
export async function timeAsync(call, { repeats = 1, minMs = 10, now = () => performance.now() } = {}) {
  let ms = Infinity;
  for (let r = 0; r < repeats; r++) {
    const t0 = now();
    let calls = 0;
    let elapsed = 0;
    do {
      await call();
      calls++;
      elapsed = now() - t0;
    } while (elapsed < minMs && calls < 10000);
    ms = Math.min(ms, elapsed / calls);
  }
  return { ms };
}

/**
 * The results of a figure's sweep (`results`, its generator) as they come,
 * and after each that `after(r)` picks (its fused kernel on one core, at N =
 * r.n), the same call on every core: `make(r, extra)` of {n, cores, ms}, or of
 * {n, skipped, predictedMs?} once the series stops, as the sweep stops its
 * variants: when the one-core run was skipped, or when the next run is
 * predicted (time ~ N^exponent from the last) past runCapMs or the budget
 * left. `measure(n, repeats)` times the pool's call (timeAsync); `warm()`
 * runs first, so that the workers' engines run optimized code.
 */
export async function* withCores(results, { pool, after, make, measure, warm, exponent = 2, budgetMs, runCapMs, now = () => performance.now() }) {
  const start = now();
  let last = null;
  let stopped = !pool;
  if (pool) await warm();
  for (const r of results) {
    yield r;
    if (stopped || !after(r)) continue;
    if (r.skipped) {
      stopped = true;
      yield make(r, { n: r.n, skipped: r.skipped, ...(r.predictedMs === undefined ? {} : { predictedMs: r.predictedMs }) });
      continue;
    }
    const guess = last ? last.ms * (r.n / last.n) ** exponent : 0;
    const left = budgetMs - (now() - start);
    if (guess > Math.min(runCapMs, left)) {
      stopped = true;
      yield make(r, { n: r.n, ...(guess > runCapMs ? { skipped: 'skipRunTime', predictedMs: guess } : { skipped: 'skipBudget' }) });
      continue;
    }
    const { ms } = await measure(r.n, guess < 30 ? 5 : guess < 300 ? 2 : 1);
    last = { n: r.n, ms };
    yield make(r, { n: r.n, cores: pool.workers, ms });
  }
}
