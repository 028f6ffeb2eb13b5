// properties.test.js: what attention must satisfy whatever the numbers, in
// both builds and both attention paths (weights, and fused without weights).
// Tolerances: the per-element error model of helpers.js unless stated.
import assert from 'node:assert/strict';
import { it } from 'node:test';

import {
  U, assertClose, assertFinite, assertRowsSumToOne, attentionBound, forEachBuild, makeMasks, permuteRows,
  randMatrix, randPermutation, randVector, ref, relBound, rng, scaled, softmaxBound,
} from './helpers.js';

// Row sums of weights: sum_j fl(e_j / S) where S is the float32 sum of the
// same e_j, so |sum - 1| is S's rounding error, at most (n_k - 1)u ~ 6e-8 n_k
// and typically sqrt(n_k) u. Issue 5 asks for 1e-6; it holds for the n_k used
// here (<= 300). (For n_k in the thousands the scalar build's single
// accumulator reaches ~1e-5: see robustness.test.js.)
const SUM_TOL = 1e-6;

const PATHS = [true, false]; // weights: true (softmax matrix) / false (fused)

const inputs = (seed, n_q, n_k, d_k, d_v) => {
  const rs = rng(seed);
  return { rs, Q: randMatrix(rs, n_q, d_k), K: randMatrix(rs, n_k, d_k), V: randMatrix(rs, n_k, d_v) };
};

/** Masks whose finite terms are multiples of 2^-10 in [-2, 2], so adding an integer is exact in float32. */
function quantizedMask(rs, n_q, n_k) {
  const { mask } = makeMasks(rs, 'additive', n_q, n_k);
  mask.data = mask.data.map((x) => (x === -Infinity ? x : Math.round(x * 1024) / 1024));
  return mask;
}

/** Row i of M (a result) as an array. */
const row = (M, i) => Array.from(M.data.subarray(i * M.cols, (i + 1) * M.cols));

forEachBuild('weights rows sum to 1', (attn) => {
  it('attention weights, every mask (fully masked rows: 0)', () => {
    for (const [n_q, n_k, d] of [[1, 1, 1], [3, 17, 4], [65, 129, 8], [64, 300, 16]]) {
      for (const kind of ['none', 'additive', 'causal', 'padding', 'all']) {
        const seed = 5000 + n_q + n_k + d;
        const { rs, Q, K, V } = inputs(seed, n_q, n_k, d, 3);
        const options = makeMasks(rs, kind, n_q, n_k);
        const want = ref.attention(Q, K, V, options);
        const zeroRows = [...Array(n_q).keys()].filter((i) => row(want.weights, i).every((w) => w === 0));
        const { weights } = attn.attention(Q, K, V, options);
        assertRowsSumToOne(weights, SUM_TOL, `attention ${n_q}x${n_k}x${d} masks=${kind} (seed ${seed})`, { zeroRows });
      }
    }
  });
  it('softmax, any temperature', () => {
    for (const [rows, cols, temperature] of [[4, 1, 1], [5, 17, 1], [3, 128, 0.25], [3, 300, 10]]) {
      const seed = 5100 + cols;
      const M = randMatrix(rng(seed), rows, cols, -10, 10);
      assertRowsSumToOne(attn.softmax(M, { temperature }), SUM_TOL, `softmax ${rows}x${cols} T=${temperature} (seed ${seed})`);
    }
  });
  it('every head of multi-head attention', () => {
    const seed = 5200;
    const rs = rng(seed);
    const d = 16;
    const X = randMatrix(rs, 20, d);
    const options = { heads: 4 };
    for (const key of ['Wq', 'Wk', 'Wv', 'Wo']) options[key] = randMatrix(rs, d, d, -0.5, 0.5);
    const r = attn.multiHeadAttention(X, null, { ...options, causal: true });
    r.weights.forEach((W, h) => assertRowsSumToOne(W, SUM_TOL, `mha head ${h} (seed ${seed})`));
  });
});

forEachBuild('permutation equivariance', (attn) => {
  // Reordering the tokens reorders the outputs and changes nothing else; the
  // only difference is the order of the float32 sums, so the two results are
  // each within the bound of the (permuted) reference: twice the bound apart.
  for (const weights of PATHS) {
    it(`self-attention, padding and additive masks permuted along (${weights ? 'weights' : 'fused'})`, () => {
      for (const [n, d, seed] of [[7, 4, 5300], [65, 8, 5301], [150, 16, 5302]]) {
        const rs = rng(seed);
        const X = randMatrix(rs, n, d);
        const perm = randPermutation(rs, n);
        const mask = makeMasks(rs, 'additive', n, n).mask;
        const keyPaddingMask = makeMasks(rs, 'padding', n, n).keyPaddingMask;
        // P M P^T and the flags in the new order.
        const pMask = { rows: n, cols: n, data: new Float32Array(n * n) };
        for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) pMask.data[i * n + j] = mask.data[perm[i] * n + perm[j]];
        const pPad = perm.map((p) => keyPaddingMask[p]);
        const PX = permuteRows(X, perm);
        const a = attn.attention(X, X, X, { mask, keyPaddingMask, weights });
        const b = attn.attention(PX, PX, PX, { mask: pMask, keyPaddingMask: pPad, weights });
        const options = { mask, keyPaddingMask };
        const bound = attentionBound(X, X, X, options, ref.attention(X, X, X, options));
        const what = `self-attention n=${n} d=${d} (seed ${seed})`;
        assertClose(b.output, ref.asMatrix(permuteRows(a.output, perm)), permuteRows({ ...a.output, data: bound.output.map((x) => 2 * x) }, perm).data, what);
      }
    });
  }
  it('cross-attention: reordering the key/value pairs changes nothing', () => {
    const seed = 5310;
    const { rs, Q, K, V } = inputs(seed, 9, 140, 8, 5);
    const perm = randPermutation(rs, 140);
    for (const weights of PATHS) {
      const a = attn.attention(Q, K, V, { weights });
      const b = attn.attention(Q, permuteRows(K, perm), permuteRows(V, perm), { weights });
      const bound = attentionBound(Q, K, V, {}, ref.attention(Q, K, V));
      assertClose(b.output, ref.asMatrix(a.output), bound.output.map((x) => 2 * x), `keys permuted (seed ${seed}) weights=${weights}`);
    }
  });
  it('multi-head self-attention (with biases)', () => {
    const seed = 5320;
    const rs = rng(seed);
    const [n, d] = [33, 32];
    const X = randMatrix(rs, n, d);
    const options = { heads: 8 };
    for (const key of ['Wq', 'Wk', 'Wv', 'Wo']) options[key] = randMatrix(rs, d, d, -0.2, 0.2);
    for (const key of ['bq', 'bk', 'bv', 'bo']) options[key] = randVector(rs, d);
    const perm = randPermutation(rs, n);
    for (const weights of PATHS) {
      const a = attn.multiHeadAttention(X, null, { ...options, weights });
      const b = attn.multiHeadAttention(permuteRows(X, perm), null, { ...options, weights });
      const want = permuteRows(ref.multiHeadAttention(X, null, options).output, perm);
      // Each within 1e-5 of the reference (api.test.js), so 2e-5 of each other.
      assertClose(b.output, ref.asMatrix(permuteRows(a.output, perm)), relBound(want, 2e-5), `mha (seed ${seed}) weights=${weights}`);
    }
  });
});

forEachBuild('adding a constant to a row of the additive mask', (attn) => {
  for (const weights of PATHS) {
    it(`changes nothing (${weights ? 'weights' : 'fused'})`, () => {
      for (const [n_q, n_k, d, seed] of [[5, 9, 4, 5400], [70, 200, 8, 5401]]) {
        const { rs, Q, K, V } = inputs(seed, n_q, n_k, d, d);
        const mask = quantizedMask(rs, n_q, n_k);
        const shift = Array.from({ length: n_q }, () => Math.round(rs.uniform(-50, 50, 1)[0]));
        const shifted = { ...mask, data: mask.data.map((x, idx) => x + shift[Math.floor(idx / n_k)]) };
        const want = ref.attention(Q, K, V, { mask }); // the unshifted answer
        // The kernel rounds scale q.k + mask, now larger: the bound with the shifted mask.
        const bound = attentionBound(Q, K, V, { mask: shifted }, ref.attention(Q, K, V, { mask: shifted }));
        const got = attn.attention(Q, K, V, { mask: shifted, weights });
        const what = `${n_q}x${n_k} rows shifted by integers in [-50, 50] (seed ${seed})`;
        assertClose(got.output, want.output, bound.output, `${what}: output`);
        if (weights) assertClose(got.weights, want.weights, bound.weights, `${what}: weights`);
      }
    });
  }
  it('and adding a constant to a row of softmax input changes nothing', () => {
    const seed = 5410;
    const rs = rng(seed);
    const M = quantizedMask(rs, 6, 40);
    const shifted = { ...M, data: M.data.map((x, idx) => x + (Math.floor(idx / 40) - 3) * 1000) };
    const want = ref.softmax(M);
    assertClose(attn.softmax(shifted), want, softmaxBound(shifted, want), `softmax shifted by -3000..2000 (seed ${seed})`);
  });
});

forEachBuild('causal and padding masks', (attn) => {
  it('put exactly 0 on masked keys', () => {
    for (const [n_q, n_k, seed] of [[5, 5, 5500], [130, 300, 5501], [300, 130, 5502]]) {
      const { rs, Q, K, V } = inputs(seed, n_q, n_k, 8, 4);
      const { keyPaddingMask } = makeMasks(rs, 'padding', n_q, n_k);
      const { weights: Wc } = attn.attention(Q, K, V, { causal: true });
      const { weights: Wp } = attn.attention(Q, K, V, { keyPaddingMask });
      const { weights: Wb } = attn.attention(Q, K, V, { causal: true, keyPaddingMask });
      for (let i = 0; i < n_q; i++) {
        for (let j = 0; j < n_k; j++) {
          const at = `[${i}][${j}] ${n_q}x${n_k} (seed ${seed})`;
          if (j > i) assert.equal(Wc.data[i * n_k + j], 0, `causal: weight of a future key ${at}`);
          else assert.ok(Wc.data[i * n_k + j] > 0, `causal: weight of a visible key ${at}`);
          if (keyPaddingMask[j]) assert.equal(Wp.data[i * n_k + j], 0, `padding: weight of a padding key ${at}`);
          if (j > i || keyPaddingMask[j]) assert.equal(Wb.data[i * n_k + j], 0, `causal + padding ${at}`);
        }
      }
    }
  });
  for (const weights of PATHS) {
    it(`hidden keys cannot leak: changing them changes no bit of the output (${weights ? 'weights' : 'fused'})`, () => {
      const seed = 5510;
      const [n_q, n_k, d] = [140, 300, 8];
      const { rs, Q, K, V } = inputs(seed, n_q, n_k, d, 5);
      const { keyPaddingMask } = makeMasks(rs, 'padding', n_q, n_k);
      const [K2, V2] = [randMatrix(rs, n_k, d, -9, 9), randMatrix(rs, n_k, 5, -9, 9)];
      // Keys 0..i stay the same except padding ones; every later key changes.
      const mixK = { ...K, data: K.data.slice() };
      const mixV = { ...V, data: V.data.slice() };
      for (let j = 0; j < n_k; j++) {
        if (keyPaddingMask[j] || j >= 70) {
          mixK.data.set(K2.data.subarray(j * d, (j + 1) * d), j * d);
          mixV.data.set(V2.data.subarray(j * 5, (j + 1) * 5), j * 5);
        }
      }
      const a = attn.attention(Q, K, V, { causal: true, keyPaddingMask, weights });
      const b = attn.attention(Q, mixK, mixV, { causal: true, keyPaddingMask, weights });
      for (let i = 0; i < 70; i++) assert.deepEqual(row(b.output, i), row(a.output, i), `query ${i} (seed ${seed})`);
    });
  }
  it('the fused path gives what the weights path gives', () => {
    const seed = 5520;
    const { rs, Q, K, V } = inputs(seed, 129, 257, 8, 8);
    const options = makeMasks(rs, 'all', 129, 257);
    const bound = attentionBound(Q, K, V, options, ref.attention(Q, K, V, options));
    const a = attn.attention(Q, K, V, options);
    const b = attn.attention(Q, K, V, { ...options, weights: false });
    assertClose(b.output, ref.asMatrix(a.output), bound.output.map((x) => 2 * x), `fused vs weights (seed ${seed})`);
  });
});

forEachBuild('fully masked rows', (attn) => {
  const isZero = (M, i, what) => row(M, i).forEach((x, j) => assert.ok(Object.is(Math.abs(x), 0), `${what}: [${i}][${j}] is ${x}, expected 0`));
  for (const weights of PATHS) {
    it(`give all-zero weights and output, never NaN (${weights ? 'weights' : 'fused'})`, () => {
      for (const [n_q, n_k, seed] of [[1, 1, 5600], [4, 7, 5601], [70, 300, 5602]]) {
        const { Q, K, V } = inputs(seed, n_q, n_k, 4, 3);
        const blockedRow = { rows: n_q, cols: n_k, data: new Float32Array(n_q * n_k) };
        blockedRow.data.fill(-Infinity, 0, n_k); // row 0: every key -Infinity
        blockedRow.data.fill(-Infinity, (n_q - 1) * n_k); // and the last row
        const cases = {
          'additive -Infinity on rows 0 and last': [{ mask: blockedRow }, [0, n_q - 1]],
          'every key padding': [{ keyPaddingMask: new Array(n_k).fill(1) }, [...Array(n_q).keys()]],
          'causal + key 0 padding (row 0 sees only key 0)': [{ causal: true, keyPaddingMask: [1, ...new Array(n_k - 1).fill(0)] }, [0]],
        };
        for (const [name, [options, rows]] of Object.entries(cases)) {
          const r = attn.attention(Q, K, V, { ...options, weights });
          const what = `${name}, ${n_q}x${n_k} (seed ${seed})`;
          assertFinite(r.output, what);
          for (const i of rows) {
            isZero(r.output, i, `${what}: output`);
            if (weights) isZero(r.weights, i, `${what}: weights`);
          }
          // The other rows are untouched by the blocked ones.
          const want = ref.attention(Q, K, V, options);
          assertClose(r.output, want.output, attentionBound(Q, K, V, options, want).output, what);
        }
      }
    });
  }
  it('in multi-head attention: zero weights and heads, output = bo', () => {
    const seed = 5610;
    const rs = rng(seed);
    const d = 8;
    const options = { heads: 2, keyPaddingMask: [1, 1, 1, 1, 1] };
    for (const key of ['Wq', 'Wk', 'Wv', 'Wo']) options[key] = randMatrix(rs, d, d);
    for (const key of ['bq', 'bk', 'bv', 'bo']) options[key] = randVector(rs, d);
    for (const weights of PATHS) {
      const r = attn.multiHeadAttention(randMatrix(rs, 3, d), randMatrix(rs, 5, d), { ...options, weights });
      for (let i = 0; i < 3; i++) {
        assert.deepEqual(row(r.output, i), Array.from(options.bo), `output row ${i} (seed ${seed})`);
        r.heads.forEach((Z, h) => isZero(Z, i, `head ${h}`));
        if (weights) r.weights.forEach((W, h) => isZero(W, i, `weights of head ${h}`));
      }
    }
  });
  it('in softmax: a row of -Infinity gives zeros', () => {
    const r = attn.softmax({ rows: 2, cols: 5, data: [1, 2, 3, 4, 5, ...new Array(5).fill(-Infinity)] });
    isZero(r, 1, 'softmax');
    assertRowsSumToOne(r, SUM_TOL, 'softmax', { zeroRows: [1] });
  });
});

forEachBuild('inputs scaled by 1000', (attn) => {
  for (const weights of PATHS) {
    it(`give finite outputs, weights summing to 1, outputs inside the values' range (${weights ? 'weights' : 'fused'})`, () => {
      for (const [n_q, n_k, d, seed] of [[7, 7, 4, 5700], [70, 260, 16, 5701]]) {
        const { Q, K, V } = inputs(seed, n_q, n_k, d, 6);
        const [Qs, Ks, Vs] = [Q, K, V].map((M) => scaled(M, 1000));
        const r = attn.attention(Qs, Ks, Vs, { weights, causal: n_q === n_k });
        const what = `${n_q}x${n_k}x${d} x1000 (seed ${seed})`;
        assertFinite(r.output, what);
        if (weights) assertRowsSumToOne(r.weights, SUM_TOL, what);
        // A convex combination of value rows stays within each column's range.
        for (let c = 0; c < 6; c++) {
          const col = Array.from({ length: n_k }, (_, j) => Vs.data[j * 6 + c]);
          const [lo, hi] = [Math.min(...col), Math.max(...col)];
          const slack = 1e3 * (n_k + 10) * U; // rounding of a sum of n_k terms of size <= 1000
          for (let i = 0; i < n_q; i++) {
            const x = r.output.data[i * 6 + c];
            assert.ok(x >= lo - slack && x <= hi + slack, `${what}: out[${i}][${c}] = ${x} outside [${lo}, ${hi}]`);
          }
        }
      }
    });
  }
  it('multi-head attention and softmax stay finite', () => {
    const seed = 5710;
    const rs = rng(seed);
    const d = 16;
    const options = { heads: 4 };
    for (const key of ['Wq', 'Wk', 'Wv', 'Wo']) options[key] = randMatrix(rs, d, d);
    const r = attn.multiHeadAttention(scaled(randMatrix(rs, 20, d), 1000), null, options);
    assertFinite(r.output, `mha (seed ${seed})`);
    r.weights.forEach((W, h) => assertRowsSumToOne(W, SUM_TOL, `mha head ${h} (seed ${seed})`));
    const s = attn.softmax(scaled(randMatrix(rs, 4, 50), 1000));
    assertFinite(s, `softmax (seed ${seed})`);
    assertRowsSumToOne(s, SUM_TOL, `softmax x1000 (seed ${seed})`);
  });
});

forEachBuild('temperature limits', (attn) => {
  const argmax = (xs) => xs.indexOf(Math.max(...xs));
  it('softmax: a tiny temperature gives the one-hot argmax, exactly', () => {
    const seed = 5800;
    const M = randMatrix(rng(seed), 6, 37, -1, 1);
    for (const temperature of [1e-30, Number.MIN_VALUE]) {
      const r = attn.softmax(M, { temperature });
      for (let i = 0; i < 6; i++) {
        const k = argmax(row(M, i));
        assert.deepEqual(row(r, i), row(M, i).map((_, j) => (j === k ? 1 : 0)), `row ${i} T=${temperature} (seed ${seed})`);
      }
    }
  });
  it('softmax: a huge temperature gives the uniform distribution', () => {
    const seed = 5801;
    const M = randMatrix(rng(seed), 4, 37, -100, 100);
    const r = attn.softmax(M, { temperature: 1e30 });
    // (x - max)/T ~ 1e-28: every exp is 1, then the sum of 37 ones and 1/37: (n + 4)u.
    assertClose(r, ref.matrix(4, 37, new Array(4 * 37).fill(1 / 37)), (1 / 37) * 41 * U, `uniform (seed ${seed})`);
  });
  for (const weights of PATHS) {
    it(`attention as a soft dictionary: a huge scale returns the best key's value, a tiny one the mean (${weights ? 'weights' : 'fused'})`, () => {
      const seed = 5810;
      const [n_q, n_k, d] = [9, 150, 3];
      const { Q, K, V } = inputs(seed, n_q, n_k, d, 2);
      const hard = attn.attention(Q, K, V, { scale: 1e30, weights });
      const S = ref.scores(Q, K, { scale: 1 });
      for (let i = 0; i < n_q; i++) {
        const best = argmax(row(S, i));
        assert.deepEqual(row(hard.output, i), row(V, best), `query ${i}: value of key ${best} (seed ${seed})`);
      }
      const soft = attn.attention(Q, K, V, { scale: 1e-30, weights });
      const mean = ref.matmul(ref.matrix(n_q, n_k, new Array(n_q * n_k).fill(1 / n_k)), V);
      const bound = attentionBound(Q, K, V, { scale: 1e-30 }, ref.attention(Q, K, V, { scale: 1e-30 }));
      assertClose(soft.output, mean, bound.output, `mean of the values (seed ${seed})`);
    });
  }
});

forEachBuild('positional encoding', (attn) => {
  it('position 0 is [0, 1, 0, 1, ...] and column pairs are sin/cos of p / 10000^(2i/d)', () => {
    const [n, d] = [50, 16];
    const PE = attn.positionalEncoding(n, d);
    assert.deepEqual(row(PE, 0), Array.from({ length: d }, (_, c) => (c % 2 ? 1 : 0)));
    for (let p = 0; p < n; p++) {
      const close = (c, want) => assert.ok(Math.abs(PE.data[p * d + c] - want) <= U * Math.abs(want) * 1.0001 + 1e-12, `PE[${p}][${c}] = ${PE.data[p * d + c]}, expected ${want}`);
      close(0, Math.sin(p));
      close(1, Math.cos(p));
      close(2, Math.sin(p / 10000 ** (2 / d)));
      close(d - 1, Math.cos(p / 10000 ** ((d - 2) / d)));
      for (let i = 0; i < d / 2; i++) {
        const [s, c] = [PE.data[p * d + 2 * i], PE.data[p * d + 2 * i + 1]];
        assert.ok(Math.abs(s * s + c * c - 1) <= 4 * U, `PE[${p}] pair ${i}: sin^2 + cos^2 = ${s * s + c * c}`);
      }
    }
  });
  it('values stay in [-1, 1]; an odd width ends with a sin column', () => {
    const PE = attn.positionalEncoding(1000, 7);
    assert.ok(PE.data.every((x) => x >= -1 && x <= 1));
    for (const p of [1, 10, 999]) {
      const want = Math.sin(p / 10000 ** (6 / 7));
      assert.ok(Math.abs(PE.data[p * 7 + 6] - want) <= 1e-7, `PE[${p}][6]`);
    }
  });
  it('the encoding of position p + k is a fixed rotation of position p (each frequency pair)', () => {
    const [n, d, k] = [64, 8, 5];
    const PE = attn.positionalEncoding(n, d);
    for (let i = 0; i < d / 2; i++) {
      const w = 1 / 10000 ** ((2 * i) / d);
      const [ck, sk] = [Math.cos(k * w), Math.sin(k * w)];
      for (let p = 0; p + k < n; p++) {
        const [s, c] = [PE.data[p * d + 2 * i], PE.data[p * d + 2 * i + 1]];
        const [s2, c2] = [PE.data[(p + k) * d + 2 * i], PE.data[(p + k) * d + 2 * i + 1]];
        // sin(a + b) = sin a cos b + cos a sin b; cos(a + b) = cos a cos b - sin a sin b
        assert.ok(Math.abs(s2 - (s * ck + c * sk)) <= 4 * U, `pair ${i}, p=${p}: sin`);
        assert.ok(Math.abs(c2 - (c * ck - s * sk)) <= 4 * U, `pair ${i}, p=${p}: cos`);
      }
    }
  });
});
