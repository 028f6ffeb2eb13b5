// random.js: seeded pseudo-random numbers for example data, so every reader
// and every test sees the same "random" vectors. Not for anything secret.

/** A generator of uniform numbers in [0, 1) from a 32-bit seed (mulberry32). */
export function uniform(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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
