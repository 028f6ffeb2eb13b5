// api.test.js: every API function against the float64 reference
// (tests/reference.js), in both builds, on shapes swept around the SIMD lane
// width (4), the GEMM tile (4 x 8, panels of 256 deep) and the fused
// kernel's blocks (BQ queries x BK keys in src/attention.c: 64 x 128 at
// first, now 128 x 128; both edges are swept). Tolerances: the error model in
// helpers.js.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import {
  MASK_KINDS, U, assertClose, assertFresh, attentionBound, builds, forEachBuild, makeMasks,
  matmulBound, randMatrix, randVector, ref, relBound, relaxedBuild, rng, scalarBuild, simdBuild, softmaxBound, toNested,
} from './helpers.js';
import { bestBuild, loadAttention, relaxedSimdSupported } from '../../web/attention.js';

// Multi-head attention chains three float32 stages (projections over d,
// attention over n_k and d/h, output projection over d); with d, n_k <= 129
// here each stage's rounding error is typically sqrt(k) u ~ 1e-6 of the
// result's magnitude or less (measured: <= 1.1e-6), so 1e-5 relative to the
// largest |value| of the result (the figure issue 2 asks for) leaves a 10x
// margin, while a wrong head split, scale or bias is off by O(1).
const MHA_RTOL = 1e-5;
// Weights are at most 1 and come from scores whose error is ~1e-7: an
// absolute 1e-5 on each weight.
const MHA_WEIGHTS_ATOL = 1e-5;

const label = (what, seed) => `${what} (seed ${seed})`;

describe('builds', () => {
  it('loads the SIMD build and the scalar build', () => {
    assert.equal(simdBuild.attn.simd, true, 'Node 20 validates wasm SIMD, so {simd: true} runs the SIMD build');
    assert.equal(simdBuild.attn.build, 'simd');
    assert.equal(scalarBuild.attn.simd, false);
    assert.equal(scalarBuild.attn.build, 'scalar');
  });
  it('loads the best build the engine validates by default; {build} forces one, {simd} still works', async () => {
    const best = relaxedSimdSupported() ? 'relaxed' : 'simd';
    assert.equal(bestBuild(), best);
    assert.equal((await loadAttention()).build, best);
    assert.equal((await loadAttention({ simd: true })).build, 'simd');
    assert.equal((await loadAttention({ simd: false })).build, 'scalar');
    assert.equal((await loadAttention({ build: 'scalar', simd: true })).build, 'scalar', 'build wins over simd');
    await assert.rejects(loadAttention({ build: 'fast' }), { name: 'RangeError', message: /build must be 'relaxed', 'simd' or 'scalar', got 'fast'/ });
    await assert.rejects(loadAttention({ build: true }), { name: 'TypeError', message: /build must be/ });
    if (!relaxedSimdSupported()) {
      await assert.rejects(loadAttention({ build: 'relaxed' }), /does not validate relaxed SIMD, so the 'relaxed' build cannot run/);
    }
  });
  // A product rounded once or twice: 1 - (1 + 2^-11) is exact, but
  // (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24 loses its 2^-24 when rounded alone. So
  // [1, 1 + 2^-12] . [-(1 + 2^-11), 1 + 2^-12] is 2^-24 with a fused
  // multiply-add and 0 without. Plain SIMD and scalar never fuse; relaxed
  // SIMD may do either (the engine chooses), and every bound allows both.
  it('relaxed SIMD fuses the multiply-add or not; the other builds never do', () => {
    const e = 2 ** -12;
    const A = { rows: 1, cols: 2, data: Float32Array.of(1, 1 + e) };
    const B = { rows: 2, cols: 1, data: Float32Array.of(-(1 + 2 * e), 1 + e) };
    assert.equal(simdBuild.attn.matmul(A, B).data[0], 0);
    assert.equal(scalarBuild.attn.matmul(A, B).data[0], 0);
    if (!relaxedBuild) return;
    const r = relaxedBuild.attn.matmul(A, B).data[0];
    assert.ok(r === 0 || r === 2 ** -24, `relaxed: ${r}`);
    console.log(`relaxed build: this engine ${r === 0 ? 'does not fuse' : 'fuses'} f32x4.relaxed_madd`);
  });
  it('uses no wasm memory between calls', () => {
    for (const { attn } of builds) assert.equal(attn.memoryInUse(), 0);
  });
});

// ---- matmul --------------------------------------------------------------------

// [m, k, n]: 1 and odd sizes; 4, 8 (lane width, GEMM tile); 63..65, 127..129
// (fused tiles); k = 255..257 crosses the GEMM's packed panel depth (256).
const MATMUL_SHAPES = [
  [1, 1, 1], [1, 3, 17], [3, 4, 5], [4, 4, 4], [8, 8, 8], [17, 3, 1], [5, 63, 9], [64, 64, 64],
  [65, 17, 127], [127, 129, 3], [128, 128, 8], [3, 255, 7], [9, 256, 16], [3, 257, 129], [33, 1, 65],
];

forEachBuild('matmul', (attn) => {
  MATMUL_SHAPES.forEach(([m, k, n], s) => {
    for (const transposeB of [false, true]) {
      it(`${m}x${k} times ${transposeB ? `(${n}x${k})^T` : `${k}x${n}`}`, () => {
        const seed = 100 + s;
        const rs = rng(seed);
        const A = randMatrix(rs, m, k);
        const B = transposeB ? randMatrix(rs, n, k) : randMatrix(rs, k, n);
        const got = attn.matmul(A, B, { transposeB });
        const want = ref.matmul(A, B, { transposeB });
        assertClose(got, want, matmulBound(A, B, { transposeB }), label(`matmul ${m}x${k}x${n} transposeB=${transposeB}`, seed));
        assert.equal(attn.memoryInUse(), 0);
      });
    }
  });
  it('no options is the plain product', () => {
    const A = [[1, 2], [3, 4]];
    assert.deepEqual(Array.from(attn.matmul(A, [[5, 6], [7, 8]]).data), [19, 22, 43, 50]);
    assert.deepEqual(Array.from(attn.matmul(A, [[5, 6], [7, 8]], { transposeB: true }).data), [17, 23, 39, 53]);
  });
});

// ---- softmax ---------------------------------------------------------------------

const SOFTMAX_SHAPES = [[1, 1], [3, 4], [17, 3], [2, 63], [5, 64], [3, 65], [4, 127], [2, 128], [1, 129], [2, 1000]];

forEachBuild('softmax', (attn) => {
  SOFTMAX_SHAPES.forEach(([rows, cols], s) => {
    for (const temperature of [1, 0.5, 3.7]) {
      it(`${rows}x${cols}, temperature ${temperature}`, () => {
        const seed = 200 + s;
        const M = randMatrix(rng(seed), rows, cols, -5, 5);
        const got = attn.softmax(M, temperature === 1 ? undefined : { temperature });
        const want = ref.softmax(M, { temperature });
        assertClose(got, want, softmaxBound(M, want, { temperature }), label(`softmax ${rows}x${cols} T=${temperature}`, seed));
      });
    }
  });
  it('gives -Infinity entries weight 0 and an all -Infinity row zeros', () => {
    const got = attn.softmax([[0, -Infinity, 0, -Infinity], [-Infinity, -Infinity, -Infinity, -Infinity]]);
    assert.deepEqual(Array.from(got.data), [0.5, 0, 0.5, 0, 0, 0, 0, 0]);
  });
});

// ---- attention -----------------------------------------------------------------

// [n_q, n_k, d_k, d_v]: odd and tiny sizes, lane-width sizes, exact fused
// blocks (64 and 128 queries, 128 keys), one off either side, and key counts
// that leave a partial last tile (300 = 2 x 128 + 44) or span several.
const ATTENTION_SHAPES = [
  [1, 1, 1, 1], [1, 3, 4, 2], [3, 1, 17, 5], [3, 17, 4, 4], [4, 8, 8, 4], [17, 3, 3, 17],
  [63, 127, 8, 3], [64, 128, 16, 16], [65, 129, 4, 9], [127, 63, 17, 1], [128, 64, 8, 8],
  [129, 257, 3, 4], [64, 300, 5, 7], [130, 65, 64, 64],
];

function checkAttention(attn, shape, kind, withWeights, seed, extra = {}) {
  const [n_q, n_k, d_k, d_v] = shape;
  const rs = rng(seed);
  const Q = randMatrix(rs, n_q, d_k);
  const K = randMatrix(rs, n_k, d_k);
  const V = randMatrix(rs, n_k, d_v);
  const options = { ...makeMasks(rs, kind, n_q, n_k), ...extra };
  const got = attn.attention(Q, K, V, { ...options, weights: withWeights });
  const want = ref.attention(Q, K, V, options);
  const bound = attentionBound(Q, K, V, options, want);
  const what = label(`attention ${shape.join('x')} masks=${kind} weights=${withWeights} ${JSON.stringify(extra)}`, seed);
  assertClose(got.output, want.output, bound.output, `${what}: output`);
  if (withWeights) assertClose(got.weights, want.weights, bound.weights, `${what}: weights`);
  else assert.equal(got.weights, null, `${what}: weights: false returns weights null`);
  assert.equal(attn.memoryInUse(), 0, `${what}: memory in use after the call`);
  return got;
}

forEachBuild('attention', (attn) => {
  ATTENTION_SHAPES.forEach((shape, s) => {
    for (const withWeights of [true, false]) {
      describe(`${shape.join('x')} (n_q x n_k x d_k x d_v), ${withWeights ? 'with weights' : 'fused, no weights'}`, () => {
        MASK_KINDS.forEach((kind, k) => {
          it(`masks: ${kind}`, () => checkAttention(attn, shape, kind, withWeights, 1000 + 10 * s + k));
        });
      });
    }
  });
  it('honours an explicit scale, in both paths', () => {
    for (const withWeights of [true, false]) {
      checkAttention(attn, [17, 130, 8, 5], 'additive', withWeights, 300, { scale: 0.37 });
      checkAttention(attn, [5, 9, 3, 3], 'none', withWeights, 301, { scale: 2.5 });
    }
  });
  it('returns weights by default', () => {
    const r = attn.attention([[1, 0]], [[1, 0], [0, 1]], [[1], [2]]);
    assert.ok(r.weights && r.weights.rows === 1 && r.weights.cols === 2);
  });
});

// ---- multi-head attention -----------------------------------------------------

// [n_q, n_k, d_model, heads, self]: self-attention needs n_q = n_k.
const MHA_SHAPES = [
  [1, 1, 1, 1, true], [3, 3, 4, 2, true], [5, 7, 6, 3, false], [17, 17, 8, 8, true],
  [4, 9, 64, 8, false], [33, 33, 64, 8, true], [65, 129, 16, 4, false], [64, 128, 12, 3, false],
  [3, 1, 17, 17, false], [129, 129, 8, 1, true],
];

function mhaInputs(rs, n_q, n_k, d, heads, selfAttention, biases) {
  const Xq = randMatrix(rs, n_q, d);
  const Xkv = selfAttention ? null : randMatrix(rs, n_k, d);
  const w = 1 / Math.sqrt(d); // keeps projected values O(1)
  const options = { heads };
  for (const key of ['Wq', 'Wk', 'Wv', 'Wo']) options[key] = randMatrix(rs, d, d, -w, w);
  if (biases) for (const key of ['bq', 'bk', 'bv', 'bo']) options[key] = randVector(rs, d);
  return { Xq, Xkv, options };
}

function checkMha(attn, got, want, heads, withWeights, what) {
  assertClose(got.output, want.output, relBound(want.output, MHA_RTOL), `${what}: output`);
  assert.equal(got.heads.length, heads, `${what}: one output per head`);
  got.heads.forEach((Z, h) => assertClose(Z, want.heads[h], relBound(want.heads[h], MHA_RTOL), `${what}: head ${h} output`));
  if (withWeights) {
    assert.equal(got.weights.length, heads, `${what}: one weight matrix per head`);
    got.weights.forEach((W, h) => assertClose(W, want.weights[h], MHA_WEIGHTS_ATOL, `${what}: head ${h} weights`));
  } else {
    assert.equal(got.weights, null, `${what}: weights: false returns weights null`);
  }
  assert.equal(attn.memoryInUse(), 0, `${what}: memory in use after the call`);
}

forEachBuild('multiHeadAttention', (attn) => {
  MHA_SHAPES.forEach(([n_q, n_k, d, heads, selfAttention], s) => {
    const title = `${selfAttention ? 'self' : 'cross'} ${n_q}x${d} over ${n_k}x${d}, ${heads} heads`;
    it(title, () => {
      let variant = 0;
      for (const biases of [false, true]) {
        for (const kind of ['none', selfAttention ? 'causal' : 'padding', 'all']) {
          for (const withWeights of [true, false]) {
            const seed = 2000 + 100 * s + variant++;
            const rs = rng(seed);
            const { Xq, Xkv, options } = mhaInputs(rs, n_q, n_k, d, heads, selfAttention, biases);
            Object.assign(options, makeMasks(rs, kind, n_q, n_k));
            const got = attn.multiHeadAttention(Xq, Xkv, { ...options, weights: withWeights });
            const want = ref.multiHeadAttention(Xq, Xkv, options);
            checkMha(attn, got, want, heads, withWeights, label(`${title} biases=${biases} masks=${kind} weights=${withWeights}`, seed));
          }
        }
      }
    });
  });

  it('8 heads on 64-wide inputs match float64 within 1e-5 relative (self and cross, both paths)', () => {
    for (const [n_q, n_k, selfAttention, seed] of [[64, 64, true, 42], [100, 64, false, 43], [64, 200, false, 44]]) {
      const rs = rng(seed);
      const { Xq, Xkv, options } = mhaInputs(rs, n_q, n_k, 64, 8, selfAttention, true);
      const want = ref.multiHeadAttention(Xq, Xkv, options);
      for (const withWeights of [true, false]) {
        const got = attn.multiHeadAttention(Xq, Xkv, { ...options, weights: withWeights });
        checkMha(attn, got, want, 8, withWeights, label(`8 heads d=64 ${n_q}x${n_k} weights=${withWeights}`, seed));
      }
    }
  });

  it('Xkv undefined or null means self-attention', () => {
    const rs = rng(7);
    const { Xq, options } = mhaInputs(rs, 6, 6, 8, 2, true, true);
    const a = attn.multiHeadAttention(Xq, undefined, options);
    const b = attn.multiHeadAttention(Xq, null, options);
    const c = attn.multiHeadAttention(Xq, Xq, options);
    assert.deepEqual(a.output.data, b.output.data);
    assert.deepEqual(a.output.data, c.output.data);
  });
});

forEachBuild('multiHeadAttention({into})', (attn) => {
  const rs = rng(3300);
  const first = mhaInputs(rs, 6, 9, 8, 2, false, true);
  const second = mhaInputs(rs, 6, 9, 8, 2, false, true);
  const call = ({ Xq, Xkv }, options) => attn.multiHeadAttention(Xq, Xkv, { ...first.options, ...options });
  const arrays = (r) => [r.output.data, ...(r.weights ?? []).map((w) => w.data), ...r.heads.map((z) => z.data)];
  it("fills an earlier result's arrays (output, weights) with what a fresh call gives", () => {
    for (const weights of [true, false]) {
      for (const readHeads of [true, false]) {
        const r = call(first, { weights });
        if (readHeads) r.heads;
        const before = [r.output.data, ...(r.weights ?? []).map((w) => w.data)];
        const again = call(second, { weights, into: r });
        const fresh = call(second, { weights });
        assert.equal(again.output, r.output);
        if (weights) again.weights.forEach((w, h) => assert.equal(w, r.weights[h]));
        const now = arrays(again);
        before.forEach((data, i) => assert.equal(now[i], data, `array ${i} is the earlier result's`));
        assert.deepEqual(now, arrays(fresh));
        // The earlier result reads the new values too, heads included.
        assert.deepEqual(arrays(r), arrays(fresh));
        assert.equal(attn.memoryInUse(), 0);
      }
    }
  });
  it('through a layer, and from a result of another head count', () => {
    const { Xq, Xkv, options } = first;
    const layer = attn.multiHeadAttentionLayer(options);
    try {
      let r = null;
      for (let i = 0; i < 3; i++) r = layer.run(Xq, Xkv, { weights: false, into: r });
      assert.deepEqual(arrays(r), arrays(attn.multiHeadAttention(Xq, Xkv, { ...options, weights: false })));
    } finally {
      layer.dispose();
    }
    const one = attn.multiHeadAttention(Xq, Xkv, { ...options, heads: 1, weights: false });
    one.heads; // split into 1 head: not reused for 2
    const two = attn.multiHeadAttention(Xq, Xkv, { ...options, weights: false, into: one });
    assert.equal(two.output, one.output);
    assert.equal(two.heads.length, 2);
    assert.equal(one.heads.length, 1);
  });
  it('a call that throws leaves the result as it was', () => {
    const r = call(first, {});
    const copies = arrays(r).map((a) => a.slice());
    const bad = { ...second.Xq, data: second.Xq.data.slice() };
    bad.data[5] = NaN;
    assert.throws(() => call({ ...second, Xq: bad }, { into: r }), /\bXq has NaN/);
    assert.throws(() => call(second, { into: { ...r, weights: r.weights.slice(1) } }), /\binto\.weights must be an array of 2/);
    assert.deepEqual(arrays(r), copies);
    assert.equal(attn.memoryInUse(), 0);
  });
});

// ---- positional encoding -----------------------------------------------------

forEachBuild('positionalEncoding', (attn) => {
  for (const [n, d] of [[1, 1], [1, 2], [3, 4], [17, 5], [64, 63], [128, 64], [100, 513], [2048, 8]]) {
    it(`${n} positions x ${d}`, () => {
      // The kernel computes in double and rounds once to float32: |error| <= u |value|.
      const got = attn.positionalEncoding(n, d);
      const want = ref.positionalEncoding(n, d);
      assertClose(got, want, want.data.map((x) => 1.0001 * U * Math.abs(x) + 1e-12), `positionalEncoding(${n}, ${d})`);
    });
  }
});

// ---- the API's contracts --------------------------------------------------------

forEachBuild('matrix', (attn) => {
  it('zeros by default, data copied into a Float32Array', () => {
    const Z = attn.matrix(2, 3);
    assert.deepEqual({ ...Z, data: Array.from(Z.data) }, { rows: 2, cols: 3, data: [0, 0, 0, 0, 0, 0] });
    assert.ok(Z.data instanceof Float32Array);
    const M = attn.matrix(2, 2, [1, 2, 3, 4]);
    assert.ok(M.data instanceof Float32Array);
    assert.deepEqual(Array.from(M.data), [1, 2, 3, 4]);
    const R = attn.matrix(1, 3, new Float64Array([0.1, 0.2, 0.3]));
    assert.deepEqual(R.data, Float32Array.from([0.1, 0.2, 0.3]));
  });
});

forEachBuild('nested arrays', (attn) => {
  it('every call accepts arrays of rows and gives the same numbers as {rows, cols, data}', () => {
    const seed = 3000;
    const rs = rng(seed);
    const [Q, K, V] = [randMatrix(rs, 5, 4), randMatrix(rs, 7, 4), randMatrix(rs, 7, 3)];
    const mask = makeMasks(rs, 'additive', 5, 7).mask;
    const same = (a, b, what) => assert.deepEqual(a.data, b.data, label(what, seed));
    same(attn.matmul(toNested(Q), toNested(K), { transposeB: true }), attn.matmul(Q, K, { transposeB: true }), 'matmul');
    same(attn.softmax(toNested(V)), attn.softmax(V), 'softmax');
    same(attn.softmax(toNested(mask)), attn.softmax(mask), 'softmax with -Infinity');
    const a = attn.attention(toNested(Q), toNested(K), toNested(V), { mask: toNested(mask) });
    const b = attn.attention(Q, K, V, { mask });
    same(a.output, b.output, 'attention output');
    same(a.weights, b.weights, 'attention weights');
    // Rows may also be typed arrays.
    const rows = (M) => toNested(M).map((r) => Float32Array.from(r));
    same(attn.attention(rows(Q), rows(K), rows(V)).output, attn.attention(Q, K, V).output, 'attention, typed rows');
    const { Xq, Xkv, options } = mhaInputs(rs, 4, 6, 8, 2, false, true);
    const nested = { ...options };
    for (const key of ['Wq', 'Wk', 'Wv', 'Wo']) nested[key] = toNested(options[key]);
    for (const key of ['bq', 'bk', 'bv', 'bo']) nested[key] = Array.from(options[key]);
    same(attn.multiHeadAttention(toNested(Xq), toNested(Xkv), nested).output,
      attn.multiHeadAttention(Xq, Xkv, options).output, 'multiHeadAttention');
  });
});

forEachBuild('results', (attn) => {
  it('are fresh Float32Arrays that later calls do not change', () => {
    const seed = 3100;
    const rs = rng(seed);
    const [Q, K, V] = [randMatrix(rs, 6, 4), randMatrix(rs, 9, 4), randMatrix(rs, 9, 5)];
    const { Xq, options } = mhaInputs(rs, 6, 6, 4, 2, true, true);
    const results = {
      matmul: attn.matmul(Q, K, { transposeB: true }),
      softmax: attn.softmax(Q),
      positionalEncoding: attn.positionalEncoding(6, 4),
    };
    const r = attn.attention(Q, K, V);
    results['attention output'] = r.output;
    results['attention weights'] = r.weights;
    results['fused attention output'] = attn.attention(Q, K, V, { weights: false }).output;
    const m = attn.multiHeadAttention(Xq, null, options);
    results['mha output'] = m.output;
    m.weights.forEach((W, h) => { results[`mha weights ${h}`] = W; });
    m.heads.forEach((Z, h) => { results[`mha head ${h}`] = Z; });
    const copies = Object.fromEntries(Object.entries(results).map(([k, M]) => [k, M.data.slice()]));
    for (const [what, M] of Object.entries(results)) assertFresh(M, what);
    // Inputs are not changed either, and the outputs do not alias them.
    assert.notEqual(results.softmax.data, Q.data);
    // Later calls of every kind, with the same shapes, reuse the same wasm addresses.
    for (let i = 0; i < 3; i++) {
      attn.matmul(K, Q, { transposeB: true });
      attn.softmax(K);
      attn.attention(K, Q, Q);
      attn.attention(K, Q, Q, { weights: false });
      attn.multiHeadAttention(options.Wq, null, options);
      attn.positionalEncoding(6, 4);
    }
    for (const [what, M] of Object.entries(results)) assert.deepEqual(M.data, copies[what], `${what} changed after later calls`);
    // Writing into a result touches nothing else.
    results.matmul.data.fill(7);
    assert.deepEqual(attn.matmul(Q, K, { transposeB: true }).data, copies.matmul);
  });
});

forEachBuild('attention({into})', (attn) => {
  const rs = rng(3200);
  const [Q, K, V] = [randMatrix(rs, 7, 5), randMatrix(rs, 9, 5), randMatrix(rs, 9, 3)];
  const [Q2, K2, V2] = [randMatrix(rs, 7, 5), randMatrix(rs, 9, 5), randMatrix(rs, 9, 3)];
  it("fills an earlier result's arrays with what a fresh call gives, in both paths", () => {
    for (const weights of [true, false]) {
      const r = attn.attention(Q, K, V, { weights });
      const arrays = [r.output.data, r.weights?.data];
      const again = attn.attention(Q2, K2, V2, { weights, into: r });
      assert.equal(again.output, r.output);
      assert.equal(again.output.data, arrays[0]);
      assert.equal(again.weights?.data, arrays[1]);
      const fresh = attn.attention(Q2, K2, V2, { weights });
      assert.deepEqual(again.output.data, fresh.output.data);
      assert.deepEqual(again.weights?.data, fresh.weights?.data);
      assert.equal(attn.memoryInUse(), 0);
    }
  });
  it('null is no result; with weights: false the weights are null and left alone', () => {
    const r = attn.attention(Q, K, V);
    assertFresh(attn.attention(Q, K, V, { into: null }).output, 'into: null');
    const before = r.weights.data.slice();
    const fused = attn.attention(Q2, K2, V2, { weights: false, into: r });
    assert.equal(fused.weights, null);
    assert.equal(fused.output.data, r.output.data);
    assert.deepEqual(r.weights.data, before);
  });
  it('a call that throws leaves the result as it was', () => {
    const r = attn.attention(Q, K, V);
    const copies = [r.output.data.slice(), r.weights.data.slice()];
    const bad = { ...Q2, data: Q2.data.slice() };
    bad.data[3] = NaN;
    assert.throws(() => attn.attention(bad, K2, V2, { into: r }), /\bQ has NaN/);
    assert.throws(() => attn.attention(Q2, K2, V2, { into: { output: r.output, weights: { ...r.weights, cols: 3 } } }),
      /\binto\.weights must be a 7x9 matrix/);
    assert.deepEqual([r.output.data, r.weights.data], copies);
    assert.equal(attn.memoryInUse(), 0);
  });
});

forEachBuild('matmul({into})', (attn) => {
  const rs = rng(3300);
  const [A, B, A2] = [randMatrix(rs, 6, 4), randMatrix(rs, 5, 4), randMatrix(rs, 6, 4)];
  it('fills an earlier result, or a view of a larger buffer, with what a fresh call gives', () => {
    const r = attn.matmul(A, B, { transposeB: true });
    const data = r.data;
    const again = attn.matmul(A2, B, { transposeB: true, into: r });
    assert.equal(again, r);
    assert.equal(again.data, data);
    assert.deepEqual(again.data, attn.matmul(A2, B, { transposeB: true }).data);
    const buffer = new Float32Array(64).fill(7);
    const view = { rows: 6, cols: 5, data: buffer.subarray(0, 30) };
    attn.matmul(A, B, { transposeB: true, into: view });
    assert.deepEqual(view.data, attn.matmul(A, B, { transposeB: true }).data);
    assert.ok(buffer.subarray(30).every((v) => v === 7), 'nothing past the view is written');
    assertFresh(attn.matmul(A, B, { transposeB: true, into: null }), 'into: null');
    assert.equal(attn.memoryInUse(), 0);
  });
  it('a call that throws leaves the result as it was', () => {
    const r = attn.matmul(A, B, { transposeB: true });
    const copy = r.data.slice();
    const bad = { ...A2, data: A2.data.slice() };
    bad.data[2] = NaN;
    assert.throws(() => attn.matmul(bad, B, { transposeB: true, into: r }), /\bA has NaN/);
    assert.deepEqual(r.data, copy);
    assert.equal(attn.memoryInUse(), 0);
  });
});

// ---- SIMD (plain or relaxed) and scalar agree ----------------------------------

for (const fast of builds.filter((b) => b.name !== 'scalar')) describe(`${fast.name} and scalar builds agree`, () => {
  // Both are within the bound of the reference, so within twice the bound of
  // each other.
  const twice = (bound) => bound.map((b) => 2 * b);
  const [simd, scalar] = [fast.attn, scalarBuild.attn];

  it('matmul', () => {
    for (const [m, k, n] of MATMUL_SHAPES) {
      const seed = 4000 + m + k + n;
      const rs = rng(seed);
      const [A, B] = [randMatrix(rs, m, k), randMatrix(rs, k, n)];
      assertClose(simd.matmul(A, B), ref.asMatrix(scalar.matmul(A, B)), twice(matmulBound(A, B)), label(`matmul ${m}x${k}x${n}`, seed));
    }
  });

  it('softmax', () => {
    for (const [rows, cols] of SOFTMAX_SHAPES) {
      const seed = 4100 + rows + cols;
      const M = randMatrix(rng(seed), rows, cols, -5, 5);
      const want = ref.softmax(M);
      assertClose(simd.softmax(M), ref.asMatrix(scalar.softmax(M)), twice(softmaxBound(M, want)), label(`softmax ${rows}x${cols}`, seed));
    }
  });

  it('attention, both paths, every mask', () => {
    ATTENTION_SHAPES.forEach((shape, s) => {
      const [n_q, n_k, d_k, d_v] = shape;
      MASK_KINDS.forEach((kind, k) => {
        const seed = 4200 + 10 * s + k;
        const rs = rng(seed);
        const [Q, K, V] = [randMatrix(rs, n_q, d_k), randMatrix(rs, n_k, d_k), randMatrix(rs, n_k, d_v)];
        const options = makeMasks(rs, kind, n_q, n_k);
        const bound = attentionBound(Q, K, V, options, ref.attention(Q, K, V, options));
        for (const weights of [true, false]) {
          const [a, b] = [simd.attention(Q, K, V, { ...options, weights }), scalar.attention(Q, K, V, { ...options, weights })];
          const what = label(`attention ${shape.join('x')} masks=${kind} weights=${weights}`, seed);
          assertClose(a.output, ref.asMatrix(b.output), twice(bound.output), `${what}: output`);
          if (weights) assertClose(a.weights, ref.asMatrix(b.weights), twice(bound.weights), `${what}: weights`);
        }
      });
    });
  });

  it('multiHeadAttention', () => {
    MHA_SHAPES.forEach(([n_q, n_k, d, heads, selfAttention], s) => {
      const seed = 4300 + s;
      const rs = rng(seed);
      const { Xq, Xkv, options } = mhaInputs(rs, n_q, n_k, d, heads, selfAttention, true);
      const a = simd.multiHeadAttention(Xq, Xkv, options);
      const b = scalar.multiHeadAttention(Xq, Xkv, options);
      const want = ref.multiHeadAttention(Xq, Xkv, options);
      assertClose(a.output, ref.asMatrix(b.output), relBound(want.output, 2 * MHA_RTOL), label(`mha ${n_q}x${n_k}x${d}/${heads}`, seed));
    });
  });

  it('positionalEncoding is identical (computed in double in both)', () => {
    assert.deepEqual(simd.positionalEncoding(50, 33).data, scalar.positionalEncoding(50, 33).data);
  });
});
