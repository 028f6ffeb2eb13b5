// pool.test.js: attentionPool() against the single-thread engine, per build
// (forEachBuild: SIMD and scalar here, relaxed through relaxed.test.js where
// Node needs a flag for it). Every call is split (the pool's threshold set
// to 0) over 3 workers, so blocks of rows and heads are uneven, and its
// results must be the engine's bits exactly: sizes around the split points
// (a single row, rows not divisible by the workers, the kernels' query
// blocks of 128 and passes of 1024), every mask (causal, windows with global
// tokens, padding, additive), weights and the fused path. Bad input rejects
// with the engine's own error before anything is posted.
// Its lifecycle (a killed worker, close with calls in flight, no worker left
// behind) is pool-life.test.js.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { attentionPool, loadAttention } from '../../web/attention.js';
import { poolState } from '../../web/api/pool.js';
import { forEachBuild, randMatrix, randVector, rng } from './helpers.js';

const WORKERS = 3;

// The same bits: every float of a and b, NaN or zero sign included.
function sameBits(a, b, what) {
  assert.equal(b.rows, a.rows, `${what}: rows`);
  assert.equal(b.cols, a.cols, `${what}: cols`);
  const x = new Uint32Array(a.data.buffer, a.data.byteOffset, a.data.length);
  const y = new Uint32Array(b.data.buffer, b.data.byteOffset, b.data.length);
  const at = x.findIndex((v, i) => v !== y[i]);
  assert.equal(at, -1, `${what}: float ${at} (row ${Math.floor(at / a.cols)}) is ${b.data[at]}, the engine's ${a.data[at]}`);
}

// Masks of one kind for n_q x n_k, from rs.
function masksOf(kind, rs, n_q, n_k) {
  const n = Math.max(n_q, n_k);
  const padding = () => Array.from(rs.uniform(0, 1, n_k), (u) => (u < 0.3 ? 1 : 0));
  const add = () => ({ rows: n_q, cols: n_k, data: Float32Array.from(rs.uniform(0, 1, n_q * n_k), (u) => (u < 0.2 ? -Infinity : 3 * u - 1)) });
  const global = () => [...new Set([0, n - 1, Math.floor(n / 2)])].sort((a, b) => a - b);
  return {
    none: {},
    causal: { causal: true },
    window: { window: 3 },
    'window + global': { window: 2, globalTokens: global() },
    padding: { keyPaddingMask: padding() },
    additive: { mask: add() },
    'all of them': { causal: true, window: 5, globalTokens: global(), keyPaddingMask: padding(), mask: add() },
  }[kind];
}
const KINDS = ['none', 'causal', 'window', 'window + global', 'padding', 'additive', 'all of them'];

forEachBuild('attentionPool', (attn, { name }) => {
  let pool, state;
  before(async () => {
    pool = await attentionPool({ build: name, workers: WORKERS });
    state = poolState.get(pool);
    state.split = { attention: 0, multiHeadAttention: 0 }; // split every call
  });
  after(() => pool.close());

  it('reports its workers and build', () => {
    assert.equal(pool.workers, WORKERS);
    assert.equal(pool.build, attn.build);
    assert.equal(pool.parts, 'all');
  });

  it('attention: the engine\'s bits, split by rows, around the split points and with every mask', async () => {
    const rs = rng(42);
    let calls = 0;
    for (const [n_q, n_k] of [[1, 1], [1, 7], [2, 5], [3, 3], [4, 130], [5, 1], [7, 129], [127, 64], [129, 300], [257, 17], [1025, 40]]) {
      const d_k = [4, 8, 64][calls % 3], d_v = [3, 8, 64][(calls + 1) % 3];
      const Q = randMatrix(rs, n_q, d_k), K = randMatrix(rs, n_k, d_k), V = randMatrix(rs, n_k, d_v);
      for (const kind of KINDS) {
        for (const weights of [true, false]) {
          const opts = { ...masksOf(kind, rs, n_q, n_k), weights };
          const posted = state.posted;
          const want = attn.attention(Q, K, V, opts);
          const got = await pool.attention(Q, K, V, opts);
          const what = `n_q ${n_q}, n_k ${n_k}, ${kind}, weights ${weights}`;
          sameBits(want.output, got.output, `${what}: output`);
          if (weights) sameBits(want.weights, got.weights, `${what}: weights`);
          else assert.equal(got.weights, null);
          assert.equal(state.posted - posted, Math.min(WORKERS, n_q), `${what}: pieces posted`);
          calls++;
        }
      }
    }
  });

  it('attention: a scale, and into (the results in an earlier result\'s arrays)', async () => {
    const rs = rng(7);
    const [Q, K, V] = [randMatrix(rs, 50, 16), randMatrix(rs, 70, 16), randMatrix(rs, 70, 9)];
    const want = attn.attention(Q, K, V, { scale: 0.3, causal: true });
    const first = await pool.attention(Q, K, V, { scale: 0.3, causal: true });
    const again = await pool.attention(Q, K, V, { scale: 0.3, causal: true, into: first });
    assert.equal(again.output, first.output);
    assert.equal(again.weights, first.weights);
    sameBits(want.output, again.output, 'into: output');
    sameBits(want.weights, again.weights, 'into: weights');
  });

  it('multiHeadAttention: the engine\'s bits, split by heads then rows, self and cross, with masks', async () => {
    const rs = rng(5);
    let k = 0;
    for (const [d, heads] of [[8, 1], [8, 2], [12, 3], [64, 8], [40, 5]]) {
      for (const [n_q, n_k] of [[5, 5], [6, 1], [17, 33], [130, 9]]) {
        const self = k % 2 === 0 && n_q === n_k;
        const layer = { heads, ...Object.fromEntries(['Wq', 'Wk', 'Wv', 'Wo'].map((w) => [w, randMatrix(rs, d, d, -0.5, 0.5)])) };
        if (k % 3) Object.assign(layer, { bq: randVector(rs, d), bk: randVector(rs, d), bv: randVector(rs, d), bo: randVector(rs, d) });
        const Xq = randMatrix(rs, n_q, d), Xkv = self ? null : randMatrix(rs, n_k, d);
        for (const kind of KINDS) {
          const weights = k % 2 === 1;
          const opts = { ...layer, ...masksOf(kind, rs, n_q, self ? n_q : n_k), weights };
          const want = attn.multiHeadAttention(Xq, Xkv, opts);
          const got = await pool.multiHeadAttention(Xq, Xkv, opts);
          const what = `d ${d}, ${heads} heads, n_q ${n_q}, n_k ${n_k}, ${kind}`;
          sameBits(want.output, got.output, `${what}: output`);
          want.heads.forEach((z, h) => sameBits(z, got.heads[h], `${what}: head ${h}`));
          if (weights) want.weights.forEach((w, h) => sameBits(w, got.weights[h], `${what}: weights of head ${h}`));
          else assert.equal(got.weights, null);
          k++;
        }
      }
    }
  });

  it('multiHeadAttention: into', async () => {
    const rs = rng(9);
    const layer = { heads: 4, Wq: randMatrix(rs, 16, 16), Wk: randMatrix(rs, 16, 16), Wv: randMatrix(rs, 16, 16), Wo: randMatrix(rs, 16, 16) };
    const X = randMatrix(rs, 40, 16);
    const want = attn.multiHeadAttention(X, null, layer);
    const first = await pool.multiHeadAttention(X, null, layer);
    const again = await pool.multiHeadAttention(X, null, { ...layer, into: first });
    assert.equal(again.output, first.output);
    again.weights.forEach((w, h) => assert.equal(w, first.weights[h]));
    sameBits(want.output, again.output, 'into: output');
    want.heads.forEach((z, h) => sameBits(z, again.heads[h], `into: head ${h}`));
  });

  it('multiHeadAttentionLayer: the engine layer\'s bits, its parameters posted once and kept in the workers', async () => {
    const rs = rng(21);
    for (const [d, heads] of [[8, 2], [40, 5], [64, 8]]) {
      const opts = { heads, ...Object.fromEntries(['Wq', 'Wk', 'Wv', 'Wo'].map((w) => [w, randMatrix(rs, d, d, -0.5, 0.5)])), bq: randVector(rs, d), bo: randVector(rs, d) };
      const want = attn.multiHeadAttentionLayer(opts);
      const layer = await pool.multiHeadAttentionLayer(opts);
      assert.deepEqual([layer.heads, layer.dModel], [heads, d]);
      // the parameters as they were when the layer was made, as the engine's layer keeps them
      opts.Wq.data.fill(0);
      assert.ok((await pool.memoryInUse()).every((bytes) => bytes >= 4 * 4 * d * d), 'each worker holds the layer');
      for (const [n_q, n_k] of [[5, 5], [6, 1], [130, 33]]) {
        const Xq = randMatrix(rs, n_q, d), Xkv = n_q === n_k ? null : randMatrix(rs, n_k, d);
        for (const kind of ['none', 'causal', 'padding', 'all of them']) {
          const o = { ...masksOf(kind, rs, n_q, Xkv ? n_k : n_q), weights: kind !== 'causal' };
          const posted = state.posted;
          const [a, b] = [want.run(Xq, Xkv, o), await layer.run(Xq, Xkv, o)];
          const what = `layer d ${d}, ${heads} heads, n_q ${n_q}, n_k ${n_k}, ${kind}`;
          sameBits(a.output, b.output, `${what}: output`);
          a.heads.forEach((z, h) => sameBits(z, b.heads[h], `${what}: head ${h}`));
          if (o.weights) a.weights.forEach((w, h) => sameBits(w, b.weights[h], `${what}: weights of head ${h}`));
          // the heads' pieces and the projection's: nothing of the layer posted again
          assert.equal(state.posted - posted, Math.min(WORKERS, heads) + Math.min(WORKERS, Math.floor(n_q / 5)), `${what}: pieces posted`);
        }
      }
      want.dispose();
      await layer.dispose();
      await layer.dispose(); // a second dispose is nothing
      await assert.rejects(layer.run(randMatrix(rs, 5, d)), { name: 'Error', message: 'this multiHeadAttentionLayer was disposed' });
    }
    assert.deepEqual(await pool.memoryInUse(), new Array(WORKERS).fill(0));
  });

  it('calls split after calls of other sizes: the buffers the workers give back are reused, and bounded', async () => {
    const rs = rng(23);
    const layer = { heads: 4, ...Object.fromEntries(['Wq', 'Wk', 'Wv', 'Wo'].map((w) => [w, randMatrix(rs, 64, 64, -0.3, 0.3)])) };
    const calls = [[300, 64], [200, 64], [300, 64], [1000, 64], [300, 64], [300, 32]].map(([n, d]) => {
      const [Q, K, V] = [randMatrix(rs, n, d), randMatrix(rs, n, d), randMatrix(rs, n, d)];
      const X = randMatrix(rs, n, 64);
      return { Q, K, V, X, want: attn.attention(Q, K, V).output, wantMha: attn.multiHeadAttention(X, null, layer).output };
    });
    for (let round = 0; round < 2; round++) {
      for (const [i, c] of calls.entries()) {
        sameBits(c.want, (await pool.attention(c.Q, c.K, c.V)).output, `attention call ${i}, round ${round}`);
        sameBits(c.wantMha, (await pool.multiHeadAttention(c.X, null, layer)).output, `multi-head call ${i}, round ${round}`);
      }
    }
    assert.ok(state.spare.length > 0, 'the workers gave their pieces\' buffers back');
    assert.ok(state.spare.length <= 8 * WORKERS, `${state.spare.length} spare buffers`);
  });

  it('linearAttention: the engine\'s bits, split by rows (causal: one piece)', async () => {
    const rs = rng(11);
    for (const [n_q, n_k, d] of [[1, 1, 4], [3, 70, 8], [65, 64, 16], [200, 130, 32]]) {
      const Q = randMatrix(rs, n_q, d), K = randMatrix(rs, n_k, d), V = randMatrix(rs, n_k, d);
      for (const opts of [{}, { causal: true }, { features: 37, seed: 5, scale: 0.2 }]) {
        const posted = state.posted;
        const want = attn.linearAttention(Q, K, V, opts);
        const got = await pool.linearAttention(Q, K, V, opts);
        sameBits(want.output, got.output, `linear n_q ${n_q}, n_k ${n_k}, ${JSON.stringify(opts)}`);
        assert.equal(state.posted - posted, opts.causal ? 1 : Math.min(WORKERS, n_q));
      }
    }
  });

  // The relaxed build has two register tiles, timed per realm; workers run
  // the one the pool's engine has, which changes no bits.
  if (name === 'relaxed') {
    it('the register tiles 2x16 and 6x8 give the same bits; workers run the pool engine\'s', async () => {
      const [t2, t6] = await Promise.all(['2x16', '6x8'].map((tiles) => loadAttention({ build: 'relaxed', tiles })));
      const rs = rng(8);
      for (const [n_q, n_k, d] of [[7, 9, 8], [130, 300, 64], [1030, 200, 40]]) {
        const [Q, K, V] = [randMatrix(rs, n_q, d), randMatrix(rs, n_k, d), randMatrix(rs, n_k, d)];
        for (const opts of [{}, { weights: false, causal: true }]) {
          const [a, b] = [t2, t6].map((e) => e.attention(Q, K, V, opts));
          sameBits(a.output, b.output, `attention ${n_q}x${n_k}x${d} ${JSON.stringify(opts)}`);
        }
        const layer = { heads: 4, ...Object.fromEntries(['Wq', 'Wk', 'Wv', 'Wo'].map((w) => [w, randMatrix(rs, 64, 64, -0.2, 0.2)])) };
        const X = randMatrix(rs, n_q, 64);
        const [a, b] = [t2, t6].map((e) => e.multiHeadAttention(X, null, layer));
        sameBits(a.output, b.output, `multi-head, ${n_q} rows`);
      }
      const tiled = await attentionPool({ build: 'relaxed', tiles: '6x8', workers: 1 });
      assert.equal(poolState.get(tiled).tiles, '6x8');
      assert.equal(state.tiles, await attn.tuned);
      await tiled.close();
    });
  }

  it('attentionBackward: the engine\'s bits, the forward and dQ by rows, dK and dV by key tiles', async () => {
    const rs = rng(13);
    let k = 0;
    for (const [n_q, n_k] of [[1, 1], [3, 129], [130, 7], [129, 300], [300, 257]]) {
      const d_k = [4, 16, 64][k % 3], d_v = [8, 3, 64][k % 3];
      const [Q, K, V, dO] = [randMatrix(rs, n_q, d_k), randMatrix(rs, n_k, d_k), randMatrix(rs, n_k, d_v), randMatrix(rs, n_q, d_v)];
      for (const kind of KINDS) {
        for (const weights of [true, false]) {
          const opts = { ...masksOf(kind, rs, n_q, n_k), weights };
          const want = attn.attentionBackward(Q, K, V, dO, opts);
          const got = await pool.attentionBackward(Q, K, V, dO, opts);
          const what = `n_q ${n_q}, n_k ${n_k}, ${kind}, weights ${weights}`;
          for (const g of ['dQ', 'dK', 'dV']) sameBits(want[g], got[g], `${what}: ${g}`);
        }
      }
      k++;
    }
    const one = await attentionPool({ build: name, workers: 1 });
    poolState.get(one).split = { attention: 0, multiHeadAttention: 0 };
    const [Q, K, V, dO] = [randMatrix(rs, 200, 16), randMatrix(rs, 150, 16), randMatrix(rs, 150, 8), randMatrix(rs, 200, 8)];
    const want = attn.attentionBackward(Q, K, V, dO, { causal: true, weights: false });
    const got = await one.attentionBackward(Q, K, V, dO, { causal: true, weights: false });
    for (const g of ['dQ', 'dK', 'dV']) sameBits(want[g], got[g], `one worker: ${g}`);
    await one.close();
  });

  it('every worker\'s engine holds no memory between calls', async () => {
    assert.deepEqual(await pool.memoryInUse(), new Array(WORKERS).fill(0));
    assert.equal(attn.memoryInUse(), 0);
  });
});

// Bad input: each call has one thing wrong; the pool rejects with the error
// the engine throws (its class and message), and posts nothing.
const I2 = [[1, 0], [0, 1]];
const W4 = [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]];
const X4 = [[1, 2, 3, 4], [4, 3, 2, 1], [0, 1, 0, 1]];
const MHA = { heads: 2, Wq: W4, Wk: W4, Wv: W4, Wo: W4 };
const BAD = [
  ['attention', [I2, I2], undefined],
  ['attention', [I2, I2, I2], 'fast'],
  ['attention', [I2, [[1, 2, 3]], I2]],
  ['attention', [I2, I2, [[1, 2]]]],
  ['attention', [[[1, NaN], [0, 1]], I2, I2]],
  ['attention', [I2, I2, { rows: 2, cols: 2, data: [1, 2, Infinity, 4] }]],
  ['attention', [I2, I2, I2], { scale: 0 }],
  ['attention', [I2, I2, I2], { scale: '1' }],
  ['attention', [I2, I2, I2], { weights: 1 }],
  ['attention', [I2, I2, I2], { causal: 'yes' }],
  ['attention', [I2, I2, I2], { mask: [[0, 0, 0], [0, 0, 0]] }],
  ['attention', [I2, I2, I2], { mask: [[0, NaN], [0, 0]] }],
  ['attention', [I2, I2, I2], { keyPaddingMask: [1] }],
  ['attention', [I2, I2, I2], { keyPaddingMask: [2, 0] }],
  ['attention', [I2, I2, I2], { window: -1 }],
  ['attention', [I2, I2, I2], { globalTokens: [0] }],
  ['attention', [I2, I2, I2], { window: 1, globalTokens: [2] }],
  ['attention', [I2, I2, I2], { window: 1, globalTokens: [1, 1] }],
  ['attention', [I2, I2, I2], { into: { output: { rows: 2, cols: 3, data: new Float32Array(6) } } }],
  ['attention', [{ rows: 1e5, cols: 1, data: new Float32Array(1e5) }, { rows: 1e5, cols: 1, data: new Float32Array(1e5) }, { rows: 1e5, cols: 1, data: new Float32Array(1e5) }]],
  ['multiHeadAttention', [X4, null], { ...MHA, heads: 3 }],
  ['multiHeadAttention', [X4, null], { ...MHA, Wq: undefined }],
  ['multiHeadAttention', [X4, null], { ...MHA, Wo: [[1, 2], [3, 4]] }],
  ['multiHeadAttention', [X4, null], { ...MHA, bq: [1, 2] }],
  ['multiHeadAttention', [X4, [[1, 2]]], MHA],
  ['multiHeadAttention', [[[1, 2, 3, NaN]], null], MHA],
  ['multiHeadAttention', [X4, null], { ...MHA, Wk: [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, Infinity, 0], [0, 0, 0, 1]] }],
  ['multiHeadAttention', [X4, null], { ...MHA, causal: 1 }],
  ['multiHeadAttention', [X4, null], { ...MHA, into: { output: null } }],
  ['multiHeadAttentionLayer', [], { ...MHA, Wq: undefined }],
  ['multiHeadAttentionLayer', [], { ...MHA, heads: 3 }],
  ['multiHeadAttentionLayer', [], { ...MHA, bo: [1, NaN, 0, 0] }],
  ['multiHeadAttentionLayer', [], 'layer'],
  ['linearAttention', [I2, I2, I2], { mask: [[0, 0], [0, 0]] }],
  ['linearAttention', [I2, I2, I2], { features: 0 }],
  ['linearAttention', [I2, I2, I2], { seed: -1 }],
  ['linearAttention', [[[NaN, 0], [0, 1]], I2, I2]],
  ['attentionBackward', [I2, I2, I2, [[1, 2, 3]]]],
  ['attentionBackward', [I2, I2, I2, [[1, NaN], [0, 0]]]],
  ['attentionBackward', [I2, I2, I2, undefined]],
  ['attentionBackward', [I2, I2, I2, I2], { causal: 2 }],
  ['attentionBackward', [[[1, 0]], I2, I2, I2]],
];

describe('attentionPool: bad input', () => {
  let attn, pool, state;
  before(async () => {
    pool = await attentionPool({ workers: 2 });
    state = poolState.get(pool);
    state.split = { attention: 0, multiHeadAttention: 0 };
    attn = (await import('./helpers.js')).simdBuild.attn;
  });
  after(() => pool.close());

  it('rejects with the engine\'s error, before anything is posted', async () => {
    for (const [fn, args, options] of BAD) {
      let want = null;
      try {
        attn[fn](...args, options);
      } catch (err) {
        want = err;
      }
      assert.ok(want, `the engine took ${fn}(${JSON.stringify(args)}, ${JSON.stringify(options)})`);
      const posted = state.posted;
      await assert.rejects(pool[fn](...args, options), (err) => {
        assert.equal(err.constructor, want.constructor, `${fn}: ${want.message}`);
        assert.equal(err.message, want.message);
        return true;
      });
      assert.equal(state.posted, posted, `${fn} posted a piece for: ${want.message}`);
    }
    assert.equal(attn.memoryInUse(), 0);
  });

  it('a layer\'s run rejects with the engine layer\'s error, before anything is posted', async () => {
    const [want, layer] = [attn.multiHeadAttentionLayer(MHA), await pool.multiHeadAttentionLayer(MHA)];
    for (const [Xq, Xkv, options] of [[I2, null], [X4, [[1, 2]]], [[[1, 2, 3, NaN]], null], [X4, null, { causal: 1 }], [X4, null, 'x'], [X4, null, { window: -1 }]]) {
      let err = null;
      try {
        want.run(Xq, Xkv, options);
      } catch (e) {
        err = e;
      }
      assert.ok(err, `the engine's layer took ${JSON.stringify([Xq, Xkv, options])}`);
      const posted = state.posted;
      await assert.rejects(layer.run(Xq, Xkv, options), { name: err.name, message: err.message });
      assert.equal(state.posted, posted);
    }
    want.dispose();
    await layer.dispose();
  });

  it('a pool of the attention part alone rejects the training part\'s calls with the engine\'s Error', async () => {
    const { loadAttention: load } = await import('../../web/attention.js');
    const small = await load({ parts: 'attention' });
    const part = await attentionPool({ parts: 'attention', workers: 1 });
    assert.equal(part.parts, 'attention');
    let want;
    try {
      small.attentionBackward(I2, I2, I2, I2);
    } catch (err) {
      want = err;
    }
    await assert.rejects(part.attentionBackward(I2, I2, I2, I2), { name: 'Error', message: want.message });
    await part.close();
  });

  it('attentionPool\'s own options are checked', async () => {
    await assert.rejects(attentionPool({ workers: 0 }), { name: 'RangeError', message: 'workers must be a positive integer, got 0' });
    await assert.rejects(attentionPool({ workers: '2' }), { name: 'TypeError', message: 'workers must be a number, got string' });
    await assert.rejects(attentionPool({ threads: 2 }), { name: 'RangeError', message: /unknown option 'threads'/ });
    await assert.rejects(attentionPool(null), { name: 'TypeError', message: 'attentionPool options must be an object' });
    await assert.rejects(attentionPool({ build: 'fast' }), { name: 'RangeError', message: /build must be 'relaxed', 'simd' or 'scalar'/ });
  });
});
