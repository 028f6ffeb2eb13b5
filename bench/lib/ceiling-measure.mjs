// ceiling-measure.mjs: times built ceiling modules (bench/lib/ceiling.c);
// runs in Node (ceiling.mjs) and in the browser bench's page.
//
// The same way for every build: each module is called until V8 tiers it up
// (its first calls run in Liftoff, the baseline compiler, at a third of the
// speed or less), then left a pause so TurboFan's background compile lands;
// then timed in blocks that alternate the modules. A block is several calls
// of about `ms` each and gives their median; the ceiling is the best block.
// Calls are short (3 ms) because on a shared machine a longer call rarely
// runs without being descheduled: with a test suite running beside it, 80 ms calls
// measured half the peak. The median, not the best call, because the
// 12-chain mul+add loop settles at a different rate from call to call (58-66
// GFLOP/s on Zen 5), while the kernels it is compared with are timed by
// medians. The block medians show how much the machine's load moved it.

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const gflops = (m, iterations, ms) => (iterations * m.perIteration) / ms / 1e6;

/** `calls` calls of `m`: the median GFLOP/s of them. */
function timeCalls(m, calls) {
  const rates = [];
  for (let i = 0; i < calls; i++) {
    const t0 = performance.now();
    m.run(m.iterations, 0.999, 0.001);
    rates.push(gflops(m, m.iterations, performance.now() - t0));
  }
  return rates.sort((x, y) => x - y)[calls >> 1];
}

/**
 * Ceilings of several built modules, measured together: `modules` maps a name
 * to { bytes, what } (what: the chains' operation, for the method line), or
 * to { error } (a module that could not be built). Returns { [name]: { gflops,
 * blocks, method } or { error } }, `blocks` being each block's median (the
 * spread the machine's load caused).
 */
export async function measureCeilingsBytes(modules, { blocks = 10, calls = 9, ms = 3, warmupMs = 60, pauseMs = 200 } = {}) {
  const list = [], failed = {};
  for (const [name, { bytes, what, error }] of Object.entries(modules)) {
    if (error || !WebAssembly.validate(bytes)) {
      failed[name] = { error: error ?? `this engine does not validate the ${name} ceiling module` };
      continue;
    }
    const { instance } = await WebAssembly.instantiate(bytes, {});
    const { ceiling_run: run, ceiling_flops_per_iteration: perIteration } = instance.exports;
    list.push({ name, what, run, perIteration: perIteration(), iterations: 1e5, blocks: [] });
  }
  // Warm-up: enough calls for V8 to ask TurboFan for each, then the pause.
  for (const m of list) {
    const t0 = performance.now();
    while (performance.now() - t0 < warmupMs) m.run(m.iterations, 0.999, 0.001);
  }
  await pause(pauseMs);
  // Calls of about `ms` each, sized at the optimized speed.
  for (const m of list) {
    const probe = 1e7, t0 = performance.now();
    m.run(probe, 0.999, 0.001);
    m.iterations = Math.ceil((probe * ms) / Math.max(performance.now() - t0, 0.1));
  }
  for (let b = 0; b < blocks; b++) {
    for (let k = 0; k < list.length; k++) {
      const m = list[(b + k) % list.length]; // the order rotates
      m.blocks.push(timeCalls(m, calls));
    }
  }
  return Object.assign(failed, Object.fromEntries(list.map((m) => [m.name, {
    gflops: Math.max(...m.blocks),
    blocks: m.blocks,
    method: `12 independent ${m.what} chains in registers; tiered up, then the best of ${blocks} blocks (alternating builds), each the median of ${calls} calls of ${ms} ms`,
  }])));
}
