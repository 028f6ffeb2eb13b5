// mt19937.js: numpy's legacy random generator (np.random.seed / np.random.rand),
// reproduced exactly so tests can use the notebook's inputs and so any random
// case here can be rebuilt in Python with the same seed:
//
//   np.random.seed(42); np.random.rand(3, 4)          <->  new RandomState(42).rand(3, 4)
//   np.random.uniform(lo, hi, size)                   <->  .uniform(lo, hi, size)
//
// The generator is the 32-bit Mersenne Twister (Matsumoto and Nishimura 1998)
// seeded with init_genrand (numpy's legacy seeding for an integer seed), and
// random_sample builds a 53-bit double from two outputs: (a >> 5, b >> 6).

const N = 624;
const M = 397;
const MATRIX_A = 0x9908b0df;
const UPPER = 0x80000000;
const LOWER = 0x7fffffff;

export class RandomState {
  constructor(seed = 0) {
    this.mt = new Uint32Array(N);
    this.index = N;
    this.seed(seed);
  }

  /** init_genrand: numpy's RandomState.seed(int) for 0 <= seed < 2^32. */
  seed(seed) {
    if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
      throw new RangeError(`seed must be an integer in [0, 2^32), got ${seed}`);
    }
    const mt = this.mt;
    mt[0] = seed >>> 0;
    for (let i = 1; i < N; i++) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = (Math.imul(1812433253, prev) + i) >>> 0;
    }
    this.index = N;
    return this;
  }

  // Regenerate all 624 words of state.
  #twist() {
    const mt = this.mt;
    for (let i = 0; i < N; i++) {
      const y = (mt[i] & UPPER) | (mt[(i + 1) % N] & LOWER);
      mt[i] = mt[(i + M) % N] ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0);
    }
    this.index = 0;
  }

  /** Next 32-bit output (genrand_int32), as an unsigned integer. */
  nextUint32() {
    if (this.index >= N) this.#twist();
    let y = this.mt[this.index++];
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  /** A double in [0, 1) with 53 random bits: numpy's random_sample(). */
  randomSample() {
    const a = this.nextUint32() >>> 5; // 27 bits
    const b = this.nextUint32() >>> 6; // 26 bits
    return (a * 67108864 + b) / 9007199254740992;
  }

  /** np.random.rand(rows, cols): row-major Float64Array of rows*cols samples. */
  rand(rows, cols = 1) {
    const out = new Float64Array(rows * cols);
    for (let i = 0; i < out.length; i++) out[i] = this.randomSample();
    return out;
  }

  /** np.random.uniform(lo, hi, size): lo + (hi - lo) * random_sample(). */
  uniform(lo, hi, size) {
    const out = new Float64Array(size);
    for (let i = 0; i < size; i++) out[i] = lo + (hi - lo) * this.randomSample();
    return out;
  }

  /** An integer in [0, n) (by scaling a sample; not numpy's randint). */
  int(n) {
    return Math.floor(this.randomSample() * n);
  }
}
