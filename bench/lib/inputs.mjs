// inputs.mjs: seeded inputs, generated once and shared by every engine.

// mulberry32: a tiny seeded generator, so every run sees the same numbers.
function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Uniform in [-amp, amp).
function fill(n, next, amp = 1) {
  const a = new Float32Array(n);
  for (let i = 0; i < n; i++) a[i] = (2 * next() - 1) * amp;
  return a;
}

/** Q (N x d), K (N x d), V (N x d): self-attention-sized inputs. */
export function sdpaInputs({ N, d }, seed = 1) {
  const next = rng(seed + N);
  return { N, d, Q: fill(N * d, next), K: fill(N * d, next), V: fill(N * d, next) };
}

/** Xq = Xkv (N x D) and one layer's parameters; weights scaled by
 *  1/sqrt(D) so projected values stay near unit size. */
export function mhaInputs({ N, D, heads }, seed = 2) {
  const next = rng(seed + N + D);
  const w = () => fill(D * D, next, 1 / Math.sqrt(D));
  const b = () => fill(D, next, 0.1);
  const X = fill(N * D, next);
  return {
    N, D, heads, Xq: X, Xkv: X,
    Wq: w(), Wk: w(), Wv: w(), Wo: w(), bq: b(), bk: b(), bv: b(), bo: b(),
  };
}

/** Query rows the bench checks against the reference: first, last and a
 *  few seeded ones in between (checking all rows would cost N^2 d in JS). */
export function sampleRows(N, count = 8, seed = 3) {
  const next = rng(seed + N);
  const rows = new Set([0, N - 1]);
  while (rows.size < Math.min(count, N)) rows.add(Math.floor(next() * N));
  return [...rows].sort((a, b) => a - b);
}
