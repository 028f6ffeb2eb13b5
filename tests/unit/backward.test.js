// backward.test.js: the gradients (issue 11).
//   1. The float64 reference gradients (reference.js) against central finite
//      differences of the float64 reference forward: this checks the oracle.
//   2. softmaxBackward, attentionBackward (both paths), multiHeadAttentionBackward
//      and layer.backward, in both builds, against the reference, within the
//      backward error model of helpers.js.
//   3. Properties: rows of the score gradient sum to 0, dV = P^T dO, masked
//      keys get exactly zero dK and dV, fully masked rows zero dQ (never NaN),
//      permutation equivariance, both paths agree.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import {
  MASK_KINDS, U, assertClose, assertFinite, attentionBackwardBound, forEachBuild, makeMasks,
  mhaBackwardBound, permuteRows, randMatrix, randPermutation, randVector, ref, rng, softmaxBackwardBound,
} from './helpers.js';

const label = (what, seed) => `${what} (seed ${seed})`;
const PATHS = [true, false]; // weights: true (stored weights) / false (fused, log-sum-exp)
const pathName = (weights) => (weights ? 'weights' : 'fused');

// ---- 1. the reference against finite differences ------------------------------

// L(x) = sum(G * f(x)) for a fixed random G, so dL/df = G and the reference
// backward with dOut = G must give dL/dx. Central differences with step h:
// truncation h^2 |L'''| / 6 and rounding ~ 2^-52 |L| / h. These functions of
// O(1) inputs have |L'''| well below 1e3 (the "large logits" cases scale the
// scores by ~10, hence third derivatives by ~1e3, but their weights are
// nearly one-hot and flat), so h = 1e-4 leaves < 2e-6 truncation... with a
// relative step h (1 + |x|). We allow 1e-6 (1 + max |gradient|): the
// reference is float64 and a wrong formula misses by O(|gradient|).
const H = 1e-4;
const FD_TOL = 1e-6;

/** Finite differences of loss() with respect to every entry of M (mutated and restored). */
function finiteDifferences(M, loss) {
  const g = new Float64Array(M.data.length);
  for (let i = 0; i < M.data.length; i++) {
    const x = M.data[i];
    const h = H * (1 + Math.abs(x));
    M.data[i] = x + h;
    const up = loss();
    M.data[i] = x - h;
    const down = loss();
    M.data[i] = x;
    g[i] = (up - down) / (2 * h);
  }
  return g;
}

const dot = (G, M) => G.data.reduce((s, g, i) => s + g * M.data[i], 0);

function assertGradient(analytic, fd, what) {
  const data = analytic.data ?? analytic;
  const scale = 1 + data.reduce((m, x) => Math.max(m, Math.abs(x)), 0);
  data.forEach((g, i) => {
    if (!(Math.abs(g - fd[i]) <= FD_TOL * scale)) {
      assert.fail(`${what}: entry ${i}: reference ${g}, finite differences ${fd[i]} (tol ${FD_TOL * scale})`);
    }
  });
}

// [n_q, n_k, d_k, d_v, extra options, |Q|, |K|]: odd sizes, n_q != n_k,
// d_k != d_v, a custom scale, large logits (Q, K at 3: scores up to ~20).
const FD_SHAPES = [
  [3, 5, 4, 2, {}, 1], [5, 3, 3, 4, {}, 1], [4, 4, 2, 3, { scale: 0.7 }, 1], [1, 6, 5, 1, {}, 1],
  [4, 7, 3, 3, {}, 3],
];

describe('reference gradients = finite differences of the float64 forward', () => {
  it('softmaxBackward, with temperature and blocked entries', () => {
    const seed = 11000;
    const rs = rng(seed);
    for (const temperature of [1, 0.4, 3]) {
      const M = ref.asMatrix(randMatrix(rs, 3, 5, -3, 3));
      M.data[2] = -Infinity; // a blocked entry: weight 0, gradient 0
      const G = ref.asMatrix(randMatrix(rs, 3, 5));
      const Y = ref.softmax(M, { temperature });
      const fd = finiteDifferences(M, () => dot(G, ref.softmax(M, { temperature })));
      fd[2] = 0; // -Infinity +- h is -Infinity: no difference to take
      assertGradient(ref.softmaxBackward(Y, G, { temperature }), fd, label(`softmax T=${temperature}`, seed));
    }
  });

  FD_SHAPES.forEach(([n_q, n_k, d_k, d_v, extra, size], s) => {
    for (const kind of MASK_KINDS) {
      it(`attentionBackward ${n_q}x${n_k}x${d_k}x${d_v} ${JSON.stringify(extra)} |QK|=${size} masks=${kind}`, () => {
        const seed = 11100 + 10 * s + MASK_KINDS.indexOf(kind);
        const rs = rng(seed);
        const [Q, K, V] = [[n_q, d_k, size], [n_k, d_k, size], [n_k, d_v, 1]].map(([r, c, m]) => ref.asMatrix(randMatrix(rs, r, c, -m, m)));
        const options = { ...makeMasks(rs, kind, n_q, n_k), ...extra };
        const G = ref.asMatrix(randMatrix(rs, n_q, d_v));
        const want = ref.attentionBackward(Q, K, V, G, options);
        const loss = () => dot(G, ref.attention(Q, K, V, options).output);
        for (const [name, M] of [['dQ', Q], ['dK', K], ['dV', V]]) {
          assertGradient(want[name], finiteDifferences(M, loss), label(`${name}, masks=${kind}`, seed));
        }
      });
    }
  });

  for (const [n_q, n_k, d, heads, self, biases] of [[3, 3, 4, 2, true, true], [2, 4, 6, 3, false, true], [3, 3, 4, 1, true, false]]) {
    it(`multiHeadAttentionBackward ${n_q}x${n_k} d=${d} heads=${heads} ${self ? 'self' : 'cross'} biases=${biases}, causal`, () => {
      const seed = 11200 + d + heads;
      const rs = rng(seed);
      const Xq = ref.asMatrix(randMatrix(rs, n_q, d));
      const Xkv = self ? null : ref.asMatrix(randMatrix(rs, n_k, d));
      const options = { heads, causal: self };
      for (const key of ['Wq', 'Wk', 'Wv', 'Wo']) options[key] = ref.asMatrix(randMatrix(rs, d, d));
      for (const key of ['bq', 'bk', 'bv', 'bo']) options[key] = ref.asMatrix({ rows: 1, cols: d, data: randVector(rs, d) }).data;
      if (!biases) for (const key of ['bq', 'bk', 'bv', 'bo']) options[key] = new Float64Array(d); // zero, so their gradient exists
      const G = ref.asMatrix(randMatrix(rs, n_q, d));
      const want = ref.multiHeadAttentionBackward(Xq, Xkv, G, options);
      const loss = () => dot(G, ref.multiHeadAttention(Xq, Xkv, options).output);
      const cases = [['dXq', Xq], ...(self ? [] : [['dXkv', Xkv]])];
      for (const key of ['Wq', 'Wk', 'Wv', 'Wo']) cases.push([`d${key}`, options[key]]);
      for (const key of ['bq', 'bk', 'bv', 'bo']) cases.push([`d${key}`, { data: options[key] }]);
      for (const [name, M] of cases) assertGradient(want[name], finiteDifferences(M, loss), label(name, seed));
    });
  }
});

// ---- 2. the kernels against the reference --------------------------------------

forEachBuild('softmaxBackward', (attn) => {
  for (const [rows, cols, temperature] of [[1, 1, 1], [3, 5, 1], [4, 17, 0.3], [2, 129, 7], [5, 300, 1]]) {
    it(`${rows}x${cols} T=${temperature}, blocked entries`, () => {
      const seed = 11300 + cols;
      const rs = rng(seed);
      const M = randMatrix(rs, rows, cols, -4, 4);
      for (let i = 0; i < M.data.length; i += 3) M.data[i] = -Infinity;
      const Y = attn.softmax(M, { temperature });
      const dY = randMatrix(rs, rows, cols);
      const got = attn.softmaxBackward(Y, dY, { temperature });
      const want = ref.softmaxBackward(Y, dY, { temperature });
      assertClose(got, want, softmaxBackwardBound(Y, dY, { temperature }), label(`softmaxBackward ${rows}x${cols}`, seed));
      for (let i = 0; i < M.data.length; i += 3) assert.ok(Object.is(got.data[i], 0), `blocked entry ${i} is ${got.data[i]}, not +0`);
      assert.equal(attn.memoryInUse(), 0);
    });
  }
  it('takes nested arrays and returns a fresh matrix', () => {
    const r = attn.softmaxBackward([[0.5, 0.5]], [[1, 0]]);
    assert.deepEqual([r.rows, r.cols, Array.from(r.data)], [1, 2, [0.25, -0.25]]);
  });
});

// [n_q, n_k, d_k, d_v] around the lane width (4), the register tiles and the
// backward's tiles (128 queries x 128 keys: 129, 130, 300 leave partial tiles
// or span several).
const SHAPES = [
  [1, 1, 1, 1], [1, 3, 4, 2], [3, 1, 17, 5], [3, 17, 4, 4], [17, 3, 3, 17], [63, 127, 8, 3],
  [65, 129, 4, 9], [129, 65, 16, 16], [130, 300, 5, 7], [64, 64, 64, 64],
];

/** Inputs of an attention backward case; `size` scales Q and K (large logits). */
function attentionCase(seed, [n_q, n_k, d_k, d_v], kind, { size = 1, ...extra } = {}) {
  const rs = rng(seed);
  const Q = randMatrix(rs, n_q, d_k, -size, size);
  const K = randMatrix(rs, n_k, d_k, -size, size);
  const V = randMatrix(rs, n_k, d_v);
  const dO = randMatrix(rs, n_q, d_v);
  return { rs, Q, K, V, dO, options: { ...makeMasks(rs, kind, n_q, n_k), ...extra } };
}

function checkAttentionBackward(attn, seed, shape, kind, weights, extra) {
  const { Q, K, V, dO, options } = attentionCase(seed, shape, kind, extra);
  const got = attn.attentionBackward(Q, K, V, dO, { ...options, weights });
  const want = ref.attentionBackward(Q, K, V, dO, options);
  const bound = attentionBackwardBound(Q, K, V, dO, options, want, { fused: !weights });
  const what = label(`attentionBackward ${shape.join('x')} masks=${kind} ${pathName(weights)} ${JSON.stringify(extra ?? {})}`, seed);
  for (const name of ['dQ', 'dK', 'dV']) assertClose(got[name], want[name], bound[name], `${what}: ${name}`);
  assert.equal(attn.memoryInUse(), 0, `${what}: memory in use after the call`);
  return got;
}

forEachBuild('attentionBackward', (attn) => {
  SHAPES.forEach((shape, s) => {
    for (const weights of PATHS) {
      it(`${shape.join('x')} (n_q x n_k x d_k x d_v), ${pathName(weights)}, every mask`, () => {
        MASK_KINDS.forEach((kind, k) => checkAttentionBackward(attn, 11400 + 10 * s + k, shape, kind, weights));
      });
    }
  });
  for (const weights of PATHS) {
    it(`a custom scale, large logits, a causal mask over several tiles (${pathName(weights)})`, () => {
      checkAttentionBackward(attn, 11500, [17, 130, 8, 5], 'additive', weights, { scale: 0.37 });
      checkAttentionBackward(attn, 11501, [5, 9, 3, 3], 'none', weights, { scale: 2.5 });
      checkAttentionBackward(attn, 11502, [9, 33, 8, 4], 'all', weights, { size: 4 }); // scores up to ~45
      checkAttentionBackward(attn, 11503, [300, 260, 8, 8], 'causal', weights);
    });
  }
  it('weights default to true, like the forward; results are fresh matrices', () => {
    const r = attn.attentionBackward([[1, 0]], [[1, 0], [0, 1]], [[1], [2]], [[1]]);
    assert.deepEqual([r.dQ.rows, r.dQ.cols, r.dK.rows, r.dK.cols, r.dV.rows, r.dV.cols], [1, 2, 2, 2, 2, 1]);
    for (const M of [r.dQ, r.dK, r.dV]) assert.equal(M.data.buffer.byteLength, M.data.byteLength);
  });
});

// [n_q, n_k, d_model, heads, self]
const MHA_SHAPES = [[1, 1, 1, 1, true], [3, 3, 4, 2, true], [5, 7, 6, 3, false], [17, 17, 16, 4, true], [4, 9, 64, 8, false], [33, 33, 32, 8, true]];

function mhaCase(seed, [n_q, n_k, d, heads, self], kind, biases) {
  const rs = rng(seed);
  const Xq = randMatrix(rs, n_q, d);
  const Xkv = self ? null : randMatrix(rs, n_k, d);
  const w = 1 / Math.sqrt(d);
  const options = { heads, ...makeMasks(rs, kind, n_q, n_k) };
  for (const key of ['Wq', 'Wk', 'Wv', 'Wo']) options[key] = randMatrix(rs, d, d, -w, w);
  if (biases) for (const key of ['bq', 'bk', 'bv', 'bo']) options[key] = randVector(rs, d);
  return { Xq, Xkv, dY: randMatrix(rs, n_q, d), options };
}

const MHA_GRADIENTS = ['dXq', 'dXkv', 'dWq', 'dWk', 'dWv', 'dWo', 'dbq', 'dbk', 'dbv', 'dbo'];
const asMatrixOf = (x) => (x.data ? x : { rows: 1, cols: x.length, data: x });

function checkMhaBackward(got, Xq, Xkv, dY, options, weights, what) {
  const want = ref.multiHeadAttentionBackward(Xq, Xkv, dY, options);
  const bound = mhaBackwardBound(Xq, Xkv, dY, options, want, { fused: !weights });
  for (const name of MHA_GRADIENTS) {
    if (want[name] === null) {
      assert.equal(got[name], null, `${what}: ${name} is null for self-attention`);
      continue;
    }
    assertClose(asMatrixOf(got[name]), asMatrixOf(want[name]), bound[name], `${what}: ${name}`);
  }
}

forEachBuild('multiHeadAttentionBackward', (attn) => {
  MHA_SHAPES.forEach((shape, s) => {
    for (const weights of PATHS) {
      it(`${shape.slice(0, 4).join('x')} ${shape[4] ? 'self' : 'cross'}, ${pathName(weights)}, every mask, with and without biases`, () => {
        MASK_KINDS.forEach((kind, k) => {
          const seed = 11600 + 10 * s + k;
          const { Xq, Xkv, dY, options } = mhaCase(seed, shape, kind, k % 2 === 0);
          const got = attn.multiHeadAttentionBackward(Xq, Xkv, dY, { ...options, weights });
          checkMhaBackward(got, Xq, Xkv, dY, options, weights, label(`mha ${shape.join('x')} masks=${kind} ${pathName(weights)}`, seed));
          assert.equal(attn.memoryInUse(), 0);
        });
      });
    }
  });
  it('layer.backward gives what multiHeadAttentionBackward gives, bit for bit, and frees nothing it should keep', () => {
    const seed = 11700;
    const { Xq, Xkv, dY, options } = mhaCase(seed, [5, 7, 8, 2, false], 'all', true);
    const layer = attn.multiHeadAttentionLayer(options);
    const held = attn.memoryInUse();
    for (const weights of PATHS) {
      const a = layer.backward(Xq, Xkv, dY, { ...options, weights });
      const b = attn.multiHeadAttentionBackward(Xq, Xkv, dY, { ...options, weights });
      for (const name of MHA_GRADIENTS) assert.deepEqual(a[name], b[name], `${name} (${pathName(weights)})`);
      assert.equal(attn.memoryInUse(), held);
    }
    layer.dispose();
    assert.equal(attn.memoryInUse(), 0);
    assert.throws(() => layer.backward(Xq, Xkv, dY), /disposed/);
  });
});

// ---- 3. properties --------------------------------------------------------------

forEachBuild('gradient properties', (attn) => {
  it('each row of the score gradient sums to 0 (softmaxBackward of weights)', () => {
    const seed = 11800;
    const rs = rng(seed);
    const Y = attn.softmax(randMatrix(rs, 6, 40, -3, 3));
    const dS = attn.softmaxBackward(Y, randMatrix(rs, 6, 40));
    const bound = softmaxBackwardBound(Y, dS);
    for (let i = 0; i < 6; i++) {
      let sum = 0;
      let tol = 0;
      for (let j = 0; j < 40; j++) {
        sum += dS.data[i * 40 + j];
        tol += bound[i * 40 + j] + 41 * U * Math.abs(dS.data[i * 40 + j]);
      }
      assert.ok(Math.abs(sum) <= tol, `row ${i} sums to ${sum} (tol ${tol}) (seed ${seed})`);
    }
  });

  for (const weights of PATHS) {
    it(`so shifting every key by one vector leaves dQ unchanged (${pathName(weights)})`, () => {
      // scores move by q_i.c, a constant per row: P, and dQ = scale dS K with
      // sum_j dS_ij = 0, do not change (dQ picks up scale (sum_j dS_ij) c = 0)
      const seed = 11801;
      const { Q, K, V, dO, options } = attentionCase(seed, [7, 11, 4, 3], 'padding');
      const shifted = { ...K, data: K.data.map((x, i) => Math.fround(x + [0.5, -0.25, 0.75, 0.125][i % 4])) };
      const a = attn.attentionBackward(Q, K, V, dO, { ...options, weights });
      const b = attn.attentionBackward(Q, shifted, V, dO, { ...options, weights });
      const want = ref.attentionBackward(Q, K, V, dO, options);
      const bound = attentionBackwardBound(Q, shifted, V, dO, options, ref.attentionBackward(Q, shifted, V, dO, options), { fused: !weights });
      // both within their own bound of the same exact dQ
      assertClose(a.dQ, want.dQ, attentionBackwardBound(Q, K, V, dO, options, want, { fused: !weights }).dQ, label('dQ', seed));
      assertClose(b.dQ, want.dQ, bound.dQ.map((e, i) => 2 * e + 8 * U * Math.abs(want.dQ.data[i])), label('dQ with shifted keys', seed));
    });

    it(`dV = P^T dO, with the weights of the forward (${pathName(weights)})`, () => {
      const seed = 11802;
      const { Q, K, V, dO, options } = attentionCase(seed, [9, 13, 5, 6], 'all');
      const { dV } = attn.attentionBackward(Q, K, V, dO, { ...options, weights });
      const P = attn.attention(Q, K, V, options).weights;
      const PtdO = attn.matmul(ref.transpose(P), dO);
      const want = ref.attentionBackward(Q, K, V, dO, options);
      const bound = attentionBackwardBound(Q, K, V, dO, options, want, { fused: !weights }).dV;
      assertClose(dV, ref.asMatrix(PtdO), bound.map((e) => 2 * e), label('dV against matmul(P^T, dO)', seed));
    });

    it(`masked keys get exactly zero dK and dV; fully masked rows zero dQ, never NaN (${pathName(weights)})`, () => {
      const seed = 11803;
      const { Q, K, V, dO } = attentionCase(seed, [6, 9, 4, 3], 'none');
      const keyPaddingMask = [0, 1, 0, 0, 1, 0, 0, 0, 1];
      const mask = { rows: 6, cols: 9, data: new Float32Array(54) };
      for (let j = 0; j < 9; j++) mask.data[2 * 9 + j] = -Infinity; // query 2 sees nothing
      for (const options of [{ keyPaddingMask }, { keyPaddingMask, mask, causal: true }]) {
        const g = attn.attentionBackward(Q, K, V, dO, { ...options, weights });
        for (const M of [g.dQ, g.dK, g.dV]) assertFinite(M, label(`${JSON.stringify(Object.keys(options))}`, seed));
        for (const j of [1, 4, 8]) {
          for (let c = 0; c < 4; c++) assert.ok(Object.is(g.dK.data[j * 4 + c], 0), `padded key ${j}: dK ${g.dK.data[j * 4 + c]}`);
          for (let c = 0; c < 3; c++) assert.ok(Object.is(g.dV.data[j * 3 + c], 0), `padded key ${j}: dV ${g.dV.data[j * 3 + c]}`);
        }
        if (options.mask) {
          for (let c = 0; c < 4; c++) assert.equal(g.dQ.data[2 * 4 + c], 0, `fully masked query 2: dQ ${g.dQ.data[2 * 4 + c]}`);
          // causal + padding of key 1 hides keys 1.. from query 0 except key 0; key 8 from all
        }
      }
      // every key padded: all gradients zero
      const all = attn.attentionBackward(Q, K, V, dO, { keyPaddingMask: Array(9).fill(1), weights });
      for (const M of [all.dQ, all.dK, all.dV]) assert.ok(M.data.every((x) => x === 0), 'every key padded: zero gradients');
    });

    it(`permutation equivariance: queries with their dO, keys with their values (${pathName(weights)})`, () => {
      const seed = 11804;
      const { rs, Q, K, V, dO } = attentionCase(seed, [8, 10, 4, 5], 'none');
      const pq = randPermutation(rs, 8);
      const pk = randPermutation(rs, 10);
      const a = attn.attentionBackward(Q, K, V, dO, { weights });
      const b = attn.attentionBackward(permuteRows(Q, pq), permuteRows(K, pk), permuteRows(V, pk), permuteRows(dO, pq), { weights });
      const want = ref.attentionBackward(Q, K, V, dO, {});
      const bound = attentionBackwardBound(Q, K, V, dO, {}, want, { fused: !weights });
      const twice = (e) => e.map((x) => 2 * x);
      // a permuted result equals the result permuted, up to both roundings
      assertClose(b.dQ, ref.asMatrix(permuteRows(a.dQ, pq)), twice(permuteRows({ rows: 8, cols: 4, data: bound.dQ }, pq).data), label('dQ', seed));
      assertClose(b.dK, ref.asMatrix(permuteRows(a.dK, pk)), twice(permuteRows({ rows: 10, cols: 4, data: bound.dK }, pk).data), label('dK', seed));
      assertClose(b.dV, ref.asMatrix(permuteRows(a.dV, pk)), twice(permuteRows({ rows: 10, cols: 5, data: bound.dV }, pk).data), label('dV', seed));
    });
  }

  it('both paths agree (each within its bound of the reference, so within the sum of each other)', () => {
    for (const kind of MASK_KINDS) {
      const seed = 11805;
      const { Q, K, V, dO, options } = attentionCase(seed, [130, 150, 8, 8], kind);
      const a = attn.attentionBackward(Q, K, V, dO, { ...options, weights: true });
      const b = attn.attentionBackward(Q, K, V, dO, { ...options, weights: false });
      const want = ref.attentionBackward(Q, K, V, dO, options);
      const ba = attentionBackwardBound(Q, K, V, dO, options, want, { fused: false });
      const bb = attentionBackwardBound(Q, K, V, dO, options, want, { fused: true });
      for (const name of ['dQ', 'dK', 'dV']) {
        assertClose(b[name], ref.asMatrix(a[name]), ba[name].map((e, i) => e + bb[name][i]), label(`${name} masks=${kind}`, seed));
      }
    }
  });
});
