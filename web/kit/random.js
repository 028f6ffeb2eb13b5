// random.js: seeded pseudo-random numbers for example data, so every reader
// and every test sees the same "random" vectors. Not for anything secret.

const STEP = 0x6d2b79f5;
// mulberry32's output for state a
function mix(a) {
  let t = Math.imul(a ^ (a >>> 15), a | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

/** A generator of uniform numbers in [0, 1) from a 32-bit seed (mulberry32). */
export function uniform(seed) {
  let a = seed >>> 0;
  return () => mix(a = (a + STEP) >>> 0);
}

// uniform(seed)'s k-th number (from 0), made alone: its state only adds STEP each time
const uniformAt = (seed, k) => mix(((seed >>> 0) + Math.imul(k + 1, STEP)) >>> 0);

/** A generator of standard normal numbers (Box-Muller on uniform(seed)). */
export function normal(seed) {
  const u = uniform(seed);
  return () => Math.sqrt(-2 * Math.log(1 - u())) * Math.cos(2 * Math.PI * u());
}

/** A rows x cols matrix of standard normal numbers times `gain`. */
export function normalMatrix(rows, cols, seed, gain = 1) {
  const next = normal(seed);
  const data = new Float32Array(rows * cols);
  for (let i = 0; i < data.length; i++) data[i] = gain * next();
  return { rows, cols, data };
}

/**
 * Columns [from, to) of normalMatrix(M.rows, M.cols, seed, gain), written
 * into M: the same numbers, a few columns at a time (a figure that needs
 * the first 64 of 512 columns makes those alone).
 */
export function fillNormalColumns(M, seed, from, to, gain = 1) {
  for (let i = 0; i < M.rows; i++) {
    for (let c = from; c < to; c++) {
      const n = i * M.cols + c; // normal(seed)'s n-th number takes uniform numbers 2n and 2n + 1
      M.data[n] = gain * (Math.sqrt(-2 * Math.log(1 - uniformAt(seed, 2 * n))) * Math.cos(2 * Math.PI * uniformAt(seed, 2 * n + 1)));
    }
  }
}
