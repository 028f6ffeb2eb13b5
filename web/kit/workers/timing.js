// timing.js: how the measuring figures time a call (cost.model.js,
// efficient.model.js): in batches, since a browser's clock ticks in steps of
// up to 0.1 ms and a small call takes less (timed one by one, it would
// read 0 ms, which has no place on a log axis).

/**
 * One call of `call` on engine `attn`, timed: {ms, bytes}. ms is the fastest
 * of `repeats` batches per call, a batch calling it until at least minMs
 * have passed (at most 10,000 times); bytes the most wasm memory a call held.
 */
export function timeCall(attn, call, { repeats = 1, minMs = 10, now = () => performance.now() } = {}) {
  let ms = Infinity;
  let bytes = 0;
  for (let r = 0; r < repeats; r++) {
    attn.memoryPeak();
    const t0 = now();
    let calls = 0;
    let elapsed = 0;
    do {
      call();
      calls++;
      elapsed = now() - t0;
    } while (elapsed < minMs && calls < 10000);
    ms = Math.min(ms, elapsed / calls);
    bytes = Math.max(bytes, attn.memoryPeak());
  }
  return { ms, bytes };
}
