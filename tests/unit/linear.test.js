// linear.test.js: Performer's linear attention (FAVOR+) and its random
// features, in both builds.
//   - the kernel equals the float64 quadratic form of the same feature map
//     (ref.linearAttention), causal or not, for sizes around the lane width
//     and the 64-row chunks; tolerance: linearBound's error model;
//   - the features: the documented bits for a seed in every build (the
//     native tests check the same numbers), orthogonal blocks, and an
//     estimate of exp(s q.k) that, averaged over many seeds, approaches it;
//   - the output's error against exact softmax attention falls as the
//     number of features grows.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import {
  assertClose, assertFinite, builds, forEachBuild, linearBound, randMatrix, ref, rng, scalarBuild,
} from './helpers.js';

// attn_random_features(m = 5, d = 3, seed = 1), as every build gives it:
// float32 values to 9 digits, which name each float exactly
// (tests/native/test_linear.c holds the same numbers as hex floats).
const FEATURES_5x3_SEED_1 = [
  0.753253222, 2.78142285, 0.800616086, -0.962685883, 0.0287379175,
  0.805896819, -0.628094196, 0.390068561, -0.764200985, 0.102258749,
  1.40851033, 1.33111644, -1.44579184, 0.243431628, -0.146516934,
].map(Math.fround);

/** Relative RMS error of got against want. */
function relError(got, want) {
  let e = 0, n = 0;
  for (let i = 0; i < want.data.length; i++) {
    e += (got.data[i] - want.data[i]) ** 2;
    n += want.data[i] ** 2;
  }
  return Math.sqrt(e / n);
}

// [n_q, n_k, d_k, d_v, m, scale]
const SIZES = [
  [1, 1, 1, 1, 1, undefined],
  [3, 5, 4, 2, 3, undefined],
  [4, 4, 4, 4, 4, 0.5],
  [5, 9, 3, 7, 17, undefined],
  [63, 63, 8, 8, 64, undefined],
  [64, 64, 8, 5, 65, undefined],
  [65, 65, 16, 16, 32, 1],
  [129, 40, 8, 3, 16, undefined], // more queries than keys: causal rows past n_k see every key
  [40, 129, 8, 3, 16, undefined], // more keys than queries
  [200, 200, 4, 4, 130, 0.1],
  [700, 700, 16, 8, 32, undefined], // 11 chunks, the running key maximum rises along the way
];

forEachBuild('linearAttention equals the quadratic form of its feature map', (attn) => {
  for (const [n_q, n_k, d_k, d_v, m, scale] of SIZES) {
    for (const causal of [false, true]) {
      it(`${n_q}x${n_k} d_k=${d_k} d_v=${d_v} features=${m} scale=${scale ?? '1/sqrt(d_k)'} causal=${causal}`, () => {
        const seed = 7000 + n_q + 3 * n_k + m;
        const rs = rng(seed);
        // Keys spread in size, so that their exponents differ by tens.
        const [Q, K, V] = [randMatrix(rs, n_q, d_k, -1.5, 1.5), randMatrix(rs, n_k, d_k, -2, 2), randMatrix(rs, n_k, d_v)];
        const omega = attn.randomFeatures(m, d_k, { seed });
        const options = { scale, causal };
        const want = ref.linearAttention(Q, K, V, omega, options);
        const got = attn.linearAttention(Q, K, V, { features: m, seed, ...options });
        assertFinite(got.output, 'output');
        assertClose(got.output, want.output, linearBound(Q, K, V, omega, options, want), `seed ${seed}`);
      });
    }
  }

  it('the same seed gives the same output; another seed another one; the default is seed 0, 256 features', () => {
    const rs = rng(7100);
    const [Q, K, V] = [randMatrix(rs, 50, 8), randMatrix(rs, 50, 8), randMatrix(rs, 50, 8)];
    const a = attn.linearAttention(Q, K, V, { seed: 3 }).output.data;
    assert.deepEqual(attn.linearAttention(Q, K, V, { seed: 3 }).output.data, a);
    assert.notDeepEqual(attn.linearAttention(Q, K, V, { seed: 4 }).output.data, a);
    assert.deepEqual(attn.linearAttention(Q, K, V).output.data, attn.linearAttention(Q, K, V, { seed: 0, features: 256 }).output.data);
  });

  it('a query whose kernel values are all far below float range still gets its weights (per-feature stabiliser)', () => {
    // q = -k with long vectors: exp(s q.k) = e^-1600 for every key, which
    // float32 cannot hold; the three keys are equal, so the answer is the
    // mean value, 2, for both queries.
    const d = 4, big = 20;
    const K = { rows: 3, cols: d, data: Float32Array.from({ length: 3 * d }, () => big) };
    const Q = { rows: 2, cols: d, data: Float32Array.of(-big, -big, -big, -big, big, big, big, big) };
    const V = { rows: 3, cols: 1, data: Float32Array.of(1, 2, 3) };
    for (const causal of [false, true]) {
      const { output } = attn.linearAttention(Q, K, V, { features: 16, scale: 1, causal });
      const want = causal ? [1, 1.5] : [2, 2];
      output.data.forEach((x, i) => assert.ok(Math.abs(x - want[i]) < 1e-5, `causal=${causal} row ${i}: ${x}, expected ${want[i]}`));
    }
  });
});

describe('random features', () => {
  it('a seed gives the documented bits in both builds', () => {
    for (const { name, attn } of builds) {
      assert.deepEqual(Array.from(attn.randomFeatures(5, 3, { seed: 1 }).data), FEATURES_5x3_SEED_1, name);
    }
    const want = scalarBuild.attn.randomFeatures(300, 64, { seed: 99 }).data;
    for (const { name, attn } of builds) assert.deepEqual(attn.randomFeatures(300, 64, { seed: 99 }).data, want, `${name} and scalar builds, 300 x 64`);
  });

  it('rows within a block of d are orthogonal; lengths are those of N(0, I_d) vectors', () => {
    const [m, d, seeds] = [64, 16, 50];
    let len2 = 0;
    for (let seed = 0; seed < seeds; seed++) {
      const W = builds[0].attn.randomFeatures(m, d, { seed });
      for (let a = 0; a < m; a++) {
        const ra = W.data.subarray(a * d, (a + 1) * d);
        const na = Math.hypot(...ra);
        len2 += na * na;
        for (let b = Math.floor(a / d) * d; b < a; b++) {
          const rb = W.data.subarray(b * d, (b + 1) * d);
          const cos = ra.reduce((s, x, c) => s + x * rb[c], 0) / (na * Math.hypot(...rb));
          assert.ok(Math.abs(cos) < 1e-6, `seed ${seed}: rows ${a} and ${b} have cosine ${cos}`);
        }
      }
    }
    // |w|^2 ~ chi-square with d degrees of freedom: mean d, variance 2d; over
    // 3200 rows the mean is d within 4 standard errors.
    const mean = len2 / (m * seeds);
    assert.ok(Math.abs(mean - d) < 4 * Math.sqrt((2 * d) / (m * seeds)), `mean |w|^2 = ${mean}, expected ${d}`);
  });

  it('the estimate of exp(s q.k), averaged over many seeds, approaches the exact kernel', () => {
    const [m, d, s] = [64, 8, 1 / Math.sqrt(8)];
    const rs = rng(7200);
    const pairs = Array.from({ length: 4 }, () => [rs.uniform(-1, 1, d), rs.uniform(-1, 1, d)]);
    pairs.push([pairs[0][0], pairs[0][0].map((x) => -x)]); // q.k < 0
    const stats = pairs.map(() => ({ sum: 0, sum2: 0, n: 0 }));
    const dot = (a, b) => a.reduce((t, x, c) => t + x * b[c], 0);
    const phi = (W, x) => {
      const xs = x.map((v) => Math.sqrt(s) * v);
      const h = dot(xs, xs) / 2;
      return Array.from({ length: m }, (_, r) => Math.exp(dot(W.data.subarray(r * d, (r + 1) * d), xs) - h) / Math.sqrt(m));
    };
    for (let seed = 0; seed < 1000; seed++) {
      const W = builds[0].attn.randomFeatures(m, d, { seed });
      pairs.forEach(([q, k], p) => {
        const est = dot(phi(W, q), phi(W, k));
        stats[p].sum += est;
        stats[p].sum2 += est * est;
        stats[p].n++;
      });
    }
    pairs.forEach(([q, k], p) => {
      const exact = Math.exp(s * dot(q, k));
      const { sum, sum2, n } = stats[p];
      const mean = sum / n;
      const stderr = Math.sqrt((sum2 / n - mean * mean) / n);
      // The average is within 4 standard errors of the exact value, and those
      // are small enough (< 2.5%) for a biased estimate to show.
      assert.ok(Math.abs(mean - exact) < 4 * stderr, `pair ${p}: mean ${mean} over ${n} seeds, exact ${exact}, standard error ${stderr}`);
      assert.ok(stderr < 0.025 * exact, `pair ${p}: standard error ${stderr} too large to tell (exact ${exact})`);
    });
  });
});

forEachBuild('linearAttention against exact softmax attention', (attn) => {
  it('the error falls as the number of features grows', () => {
    const seed = 7300;
    const rs = rng(seed);
    const [n, d] = [256, 16];
    const [Q, K, V] = [randMatrix(rs, n, d, -1, 1), randMatrix(rs, n, d, -1, 1), randMatrix(rs, n, d, -1, 1)];
    for (const causal of [false, true]) {
      const exact = ref.attention(Q, K, V, { causal }).output;
      const errors = [16, 64, 256, 1024].map((features) => {
        let e = 0;
        for (let s = 0; s < 4; s++) e += relError(attn.linearAttention(Q, K, V, { features, seed: s, causal }).output, exact) / 4;
        return e;
      });
      for (let i = 1; i < errors.length; i++) {
        assert.ok(errors[i] < errors[i - 1], `causal=${causal}: errors ${errors.map((e) => e.toFixed(4))} do not fall (seed ${seed})`);
      }
      // Monte Carlo: error ~ 1/sqrt(m), so 64x the features is about 8x smaller.
      assert.ok(errors[3] < errors[0] / 4, `causal=${causal}: 1024 features ${errors[3]}, 16 features ${errors[0]}`);
    }
  });
});
