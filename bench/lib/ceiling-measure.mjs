// ceiling-measure.mjs: times a built ceiling module (bench/lib/ceiling.c); runs
// in Node (ceiling.mjs) and in the browser bench's page.

/** Best GFLOP/s over `runs` calls of ~`ms` each, after warm-up (the first
 *  calls run in V8's baseline tier). Returns { gflops, method }. */
export async function measureCeilingBytes(bytes, { runs = 7, ms = 80, what = 'f32x4 mul+add' } = {}) {
  const { instance } = await WebAssembly.instantiate(bytes, {});
  const { ceiling_run: run, ceiling_flops_per_iteration: perIter } = instance.exports;
  let iterations = 1e6;
  for (let i = 0; i < 3; i++) run(iterations, 0.999, 0.001);
  const t = performance.now();
  run(iterations, 0.999, 0.001);
  iterations = Math.ceil((iterations * ms) / Math.max(performance.now() - t, 0.1));
  let best = 0;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    run(iterations, 0.999, 0.001);
    const s = (performance.now() - t0) / 1e3;
    best = Math.max(best, (iterations * perIter()) / s / 1e9);
  }
  return { gflops: best, method: `12 independent ${what} chains in registers, best of ${runs}` };
}
