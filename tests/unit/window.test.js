// window.test.js: sliding-window attention with global tokens (Longformer's
// pattern) equals exact attention under the equivalent additive mask, on both
// paths and in both builds, alone and with causal, padding and an additive
// mask on top. Sizes sit around the lane width (4), the tiles (128 keys, 128
// queries) and the fused path's passes of 1024 queries, so that tiles wholly
// outside the band (skipped), cut by its edge, and holding a global row or key
// all occur. Tolerance: the per-element error model of helpers.js, computed
// with the equivalent mask.
import assert from 'node:assert/strict';
import { it } from 'node:test';

import {
  assertClose, assertRowsSumToOne, attentionBackwardBound, attentionBound, forEachBuild, makeMasks, randMatrix, ref, relBound, rng,
} from './helpers.js';

/** -Infinity where the window hides key j from query i (|i - j| > w, neither global), else 0. */
function windowMask(n_q, n_k, w, globalTokens = []) {
  const g = new Set(globalTokens);
  const data = new Float32Array(n_q * n_k);
  for (let i = 0; i < n_q; i++) {
    for (let j = 0; j < n_k; j++) {
      if (Math.abs(i - j) > w && !g.has(i) && !g.has(j)) data[i * n_k + j] = -Infinity;
    }
  }
  return { rows: n_q, cols: n_k, data };
}

/** The options with the window replaced by its additive mask (summed with any mask given). */
function equivalent(options, n_q, n_k, w, globalTokens) {
  const wm = windowMask(n_q, n_k, w, globalTokens);
  if (options.mask) wm.data.forEach((x, idx) => { wm.data[idx] = x + options.mask.data[idx]; });
  return { ...options, mask: wm };
}

// [n_q, n_k, d, window, globalTokens, mask kinds]
const CASES = [
  [1, 1, 1, 0, [], ['none']],
  [5, 5, 4, 0, [], ['none', 'causal']],
  [5, 5, 4, 1, [2], ['none', 'padding']],
  [3, 17, 4, 2, [16], ['none', 'all']],
  [17, 3, 3, 1, [0, 12], ['none', 'additive']],
  [127, 127, 8, 4, [], ['none', 'causal']],
  [129, 129, 8, 128, [], ['none']],
  [257, 257, 5, 3, [0, 128, 256], ['none', 'causal', 'padding', 'all']],
  [300, 300, 16, 127, [200], ['none', 'all']],
  [200, 600, 4, 129, [599], ['none', 'additive']],
  [300, 300, 4, 1000, [7], ['none']], // a window wider than the sequence: full attention
  [1100, 1100, 4, 5, [1050], ['none', 'causal']], // two passes of the fused path; a global row in the second
  [1100, 1100, 4, 2, [], ['padding']],
];

forEachBuild('window and global tokens equal the equivalent additive mask', (attn) => {
  for (const [n_q, n_k, d, w, globalTokens, kinds] of CASES) {
    it(`${n_q}x${n_k} d=${d} window=${w} global=[${globalTokens}] masks=${kinds}`, () => {
      for (const kind of kinds) {
        const seed = 9100 + n_q + 7 * n_k + w;
        const rs = rng(seed);
        const [Q, K, V] = [randMatrix(rs, n_q, d), randMatrix(rs, n_k, d), randMatrix(rs, n_k, d)];
        const masks = makeMasks(rs, kind, n_q, n_k);
        const eq = equivalent(masks, n_q, n_k, w, globalTokens);
        const want = ref.attention(Q, K, V, eq);
        const bound = attentionBound(Q, K, V, eq, want);
        const label = `${n_q}x${n_k} d=${d} window=${w} global=[${globalTokens}] masks=${kind} (seed ${seed})`;
        for (const weights of [true, false]) {
          const got = attn.attention(Q, K, V, { ...masks, window: w, globalTokens, weights });
          assertClose(got.output, want.output, bound.output, `${label} weights=${weights} output`);
          if (weights) {
            assertClose(got.weights, want.weights, bound.weights, `${label} weights`);
            const zeroRows = [...Array(n_q).keys()].filter((i) => want.weights.data.subarray(i * n_k, (i + 1) * n_k).every((x) => x === 0));
            assertRowsSumToOne(got.weights, 1e-4, label, { zeroRows });
          }
        }
      }
    });
  }

  // The backward takes the same options: gradients equal those under the
  // equivalent mask (a hidden key gets no dK, dV from the queries it hides from).
  for (const [n_q, n_k, d, w, globalTokens, kind] of [
    [5, 5, 4, 1, [2], 'padding'], [257, 257, 5, 3, [0, 128, 256], 'causal'], [300, 300, 8, 127, [200], 'all'], [200, 600, 4, 129, [599], 'additive'],
  ]) {
    it(`attentionBackward ${n_q}x${n_k} d=${d} window=${w} global=[${globalTokens}] masks=${kind}, both paths`, () => {
      const seed = 9500 + n_q + w;
      const rs = rng(seed);
      const [Q, K, V, dO] = [randMatrix(rs, n_q, d), randMatrix(rs, n_k, d), randMatrix(rs, n_k, d), randMatrix(rs, n_q, d)];
      const masks = makeMasks(rs, kind, n_q, n_k);
      const eq = equivalent(masks, n_q, n_k, w, globalTokens);
      const want = ref.attentionBackward(Q, K, V, dO, eq);
      for (const weights of [true, false]) {
        const got = attn.attentionBackward(Q, K, V, dO, { ...masks, window: w, globalTokens, weights });
        const bound = attentionBackwardBound(Q, K, V, dO, eq, want, { fused: !weights });
        for (const name of ['dQ', 'dK', 'dV']) assertClose(got[name], want[name], bound[name], `${name} weights=${weights} (seed ${seed})`);
      }
    });
  }

  it('hidden weights are exactly 0; a global row sees every key, a global key is seen by every query', () => {
    const n = 140, w = 3, G = [0, 70];
    const rs = rng(9200);
    const [Q, K, V] = [randMatrix(rs, n, 8), randMatrix(rs, n, 8), randMatrix(rs, n, 8)];
    const { weights } = attn.attention(Q, K, V, { window: w, globalTokens: G });
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        const seen = Math.abs(i - j) <= w || G.includes(i) || G.includes(j);
        const x = weights.data[i * n + j];
        assert.ok(seen ? x > 0 : x === 0, `weight [${i}][${j}] = ${x}, ${seen ? 'visible' : 'hidden'}`);
      }
    }
  });

  it('globalTokens in any order and as an Int32Array give the same result', () => {
    const rs = rng(9300);
    const [Q, K, V] = [randMatrix(rs, 40, 4), randMatrix(rs, 40, 4), randMatrix(rs, 40, 4)];
    const a = attn.attention(Q, K, V, { window: 2, globalTokens: [30, 1, 17], weights: false });
    const b = attn.attention(Q, K, V, { window: 2, globalTokens: Int32Array.of(1, 17, 30), weights: false });
    assert.deepEqual(a.output.data, b.output.data);
  });

  it('multi-head attention takes the window too (every head)', () => {
    const rs = rng(9400);
    const n = 20, d = 8;
    const X = randMatrix(rs, n, d);
    const P = Object.fromEntries(['Wq', 'Wk', 'Wv', 'Wo'].map((k) => [k, randMatrix(rs, d, d)]));
    const got = attn.multiHeadAttention(X, null, { heads: 2, ...P, window: 2, globalTokens: [5] });
    const want = attn.multiHeadAttention(X, null, { heads: 2, ...P, mask: windowMask(n, n, 2, [5]) });
    // Not bit-equal: with an additive mask the scores are scaled before the
    // softmax, without one inside exp. A few float32 roundings apart.
    for (let h = 0; h < 2; h++) assertClose(got.weights[h], want.weights[h], relBound(want.weights[h], 1e-5), `head ${h} weights`);
    assertClose(got.output, want.output, relBound(want.output, 1e-5), 'output');
  });
});
