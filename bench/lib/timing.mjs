// timing.mjs: warm-up, interleaved rounds and medians.

// Only real promises are awaited (ORT is async): awaiting a plain value
// would add a microtask to every call of the sync engines.
export const isPromise = (r) => r !== null && typeof r?.then === 'function';

async function timeOnce(run) {
  const t = performance.now();
  let result = run();
  if (isPromise(result)) result = await result;
  return { ms: performance.now() - t, result };
}

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/**
 * Times each variant ({ run }) in interleaved rounds: every round calls each
 * variant once, in an order rotated round by round, so drift in the machine
 * (turbo, other processes) spreads over all engines alike.
 *   - warm-up (see warmUp). A first call over `warmMs` is long enough to be
 *     steady (the code is hot from smaller configs) and counts as a sample.
 *   - a sample repeats short calls until it lasts `sampleMs` and divides.
 *   - rounds per variant: about `budgetMs` of samples, within [minRounds, maxRounds].
 * A variant whose call throws (say, out of memory) drops out with its error.
 * Returns per variant { first, samples, rounds, batch, medianMs } or { error }.
 */
export async function interleave(variants, { budgetMs, minRounds, maxRounds, sampleMs = 5, warmMs = 10000 }) {
  const states = [];
  for (const v of variants) {
    try {
      states.push(await warmUp(v.run, { budgetMs, minRounds, maxRounds, sampleMs, warmMs }));
    } catch (e) {
      states.push({ error: e.message ?? String(e) });
    }
  }
  const most = Math.max(...states.map((s) => s.rounds ?? 0));
  for (let r = 0; r < most; r++) {
    for (let i = 0; i < states.length; i++) {
      const s = states[(i + r) % states.length];
      if (s.error || s.samples.length >= s.rounds) continue;
      try {
        s.samples.push(await sample(s.run, s.batch));
      } catch (e) {
        s.error = e.message ?? String(e);
      }
    }
  }
  return states.map(({ error, first, samples, rounds, batch }) =>
    error ? { error } : { first, samples, rounds, batch, medianMs: median(samples) },
  );
}

async function sample(run, batch) {
  const t = performance.now();
  for (let k = 0; k < batch; k++) {
    const r = run();
    if (isPromise(r)) await r;
  }
  return (performance.now() - t) / batch;
}

// The first call (result kept for the accuracy check), then, when calls are
// short, more of them for at least 2 ms (a page's clock counts in 0.1 ms, so
// one short call can read 0, which made the batch infinite); sets the batch
// and the number of rounds from their mean.
async function warmUp(run, { budgetMs, minRounds, maxRounds, sampleMs, warmMs }) {
  let { ms, result: first } = await timeOnce(run);
  const samples = [];
  if (ms > warmMs) samples.push(ms);
  else if (ms < 250) {
    const t = performance.now();
    let calls = 0;
    do {
      const r = run();
      if (isPromise(r)) await r;
      calls++;
    } while (calls < 2 || performance.now() - t < 2);
    ms = (performance.now() - t) / calls;
  }
  const batch = Math.max(1, Math.ceil(sampleMs / ms));
  const rounds = Math.max(minRounds, Math.min(maxRounds, Math.round(budgetMs / (ms * batch))));
  return { run, first, samples, batch, rounds };
}
