// layer.test.js: multiHeadAttentionLayer keeps Wq..Wo in wasm memory and
// must give exactly what multiHeadAttention gives, hold its parameters until
// dispose() and nothing after.
import assert from 'node:assert/strict';
import { it } from 'node:test';

import { forEachBuild, randMatrix, randVector, rng } from './helpers.js';

const SEED = 4242;

function layerOptions(rs, d, heads, biases) {
  const o = { heads, Wq: randMatrix(rs, d, d), Wk: randMatrix(rs, d, d), Wv: randMatrix(rs, d, d), Wo: randMatrix(rs, d, d) };
  if (biases) for (const b of ['bq', 'bk', 'bv', 'bo']) o[b] = randVector(rs, d);
  return o;
}

forEachBuild('multiHeadAttentionLayer', (attn) => {
  it('gives bit for bit what multiHeadAttention gives, self and cross, with masks', () => {
    const rs = rng(SEED);
    const before = attn.memoryInUse();
    for (const [d, heads, biases] of [[8, 2, false], [64, 8, true], [12, 3, true]]) {
      const opts = layerOptions(rs, d, heads, biases);
      const layer = attn.multiHeadAttentionLayer(opts);
      assert.equal(layer.heads, heads);
      assert.equal(layer.dModel, d);
      for (const [n_q, n_k] of [[5, 5], [3, 7]]) {
        const Xq = randMatrix(rs, n_q, d);
        const Xkv = n_q === n_k ? null : randMatrix(rs, n_k, d);
        const call = { causal: n_q === n_k, keyPaddingMask: Array.from({ length: n_k }, (_, j) => (j === 1 ? 1 : 0)) };
        const want = attn.multiHeadAttention(Xq, Xkv, { ...opts, ...call });
        for (let rep = 0; rep < 2; rep++) {
          const got = layer.run(Xq, Xkv, call);
          assert.deepEqual(got.output.data, want.output.data, `d=${d} n_q=${n_q} output (seed ${SEED})`);
          got.weights.forEach((w, h) => assert.deepEqual(w.data, want.weights[h].data, `head ${h} weights`));
          got.heads.forEach((z, h) => assert.deepEqual(z.data, want.heads[h].data, `head ${h} output`));
        }
      }
      assert.ok(attn.memoryInUse() >= before + 16 * d * d, 'the parameters stay in wasm memory');
      layer.dispose();
      assert.equal(attn.memoryInUse(), before, 'dispose() gives every byte back');
    }
  });

  it('checks its inputs like multiHeadAttention and refuses to run after dispose()', () => {
    const rs = rng(SEED + 1);
    const before = attn.memoryInUse();
    assert.throws(() => attn.multiHeadAttentionLayer({ ...layerOptions(rs, 8, 2, false), heads: 3 }), /heads \(3\) must divide d_model \(8\)/);
    assert.throws(() => attn.multiHeadAttentionLayer({ heads: 2 }), TypeError);
    const nan = layerOptions(rs, 4, 2, true);
    nan.bv = [0, NaN, 0, 0];
    assert.throws(() => attn.multiHeadAttentionLayer(nan), /bv has NaN at index 1/);
    assert.equal(attn.memoryInUse(), before, 'a refused layer holds nothing');
    const layer = attn.multiHeadAttentionLayer(layerOptions(rs, 4, 2, false));
    assert.throws(() => layer.run(randMatrix(rs, 3, 5)), /Xq is 3x5, expected 3x4/);
    assert.throws(() => layer.run(randMatrix(rs, 3, 4), null, { causal: 1 }), TypeError);
    layer.dispose();
    assert.throws(() => layer.run(randMatrix(rs, 3, 4)), /disposed/);
    assert.equal(attn.memoryInUse(), before);
  });
});
