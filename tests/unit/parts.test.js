// parts.test.js: loadAttention({ parts: 'attention' }), the attention part
// alone (build/attention-only*.wasm), on every build: each forward call it
// has gives the full engine's result bit for bit (the same C, compiled the
// same way); each training call throws an Error that names the option to
// use, and leaves the engine as it was.
import assert from 'node:assert/strict';
import { it } from 'node:test';

import { MASK_KINDS, builds, forEachBuild, makeMasks, randMatrix, randVector, rng } from './helpers.js';
import { loadAttention } from '../../web/attention.js';

const small = Object.fromEntries(await Promise.all(builds.map(async (b) => [b.name, await loadAttention({ build: b.name, parts: 'attention' })])));

// Every forward call of the API, with options that reach each of its paths.
function forwardCalls(seed) {
  const rs = rng(seed);
  const [Q, K, V] = [randMatrix(rs, 37, 24), randMatrix(rs, 45, 24), randMatrix(rs, 45, 9)];
  const X = randMatrix(rs, 33, 16);
  const Y = randMatrix(rs, 21, 16);
  const layer = {
    heads: 4, Wq: randMatrix(rs, 16, 16), Wk: randMatrix(rs, 16, 16), Wv: randMatrix(rs, 16, 16), Wo: randMatrix(rs, 16, 16),
    bq: randVector(rs, 16), bk: randVector(rs, 16), bv: randVector(rs, 16), bo: randVector(rs, 16),
  };
  const W = randMatrix(rs, 7, 130, 0, 1);
  const calls = [
    ['matmul', (a) => a.matmul(Q, K, { transposeB: true })],
    ['matmul 256+ deep', (a) => a.matmul(randMatrix(rng(seed + 1), 9, 300), randMatrix(rng(seed + 2), 300, 17))],
    ['softmax', (a) => a.softmax(randMatrix(rng(seed + 3), 7, 130, -30, 30), { temperature: 0.7 })],
    ['softmaxBackward', (a) => a.softmaxBackward(W, randMatrix(rng(seed + 4), 7, 130), { temperature: 1.3 })],
    ['positionalEncoding', (a) => a.positionalEncoding(50, 24)],
    ['randomFeatures', (a) => a.randomFeatures(40, 24, { seed: 7 })],
    ['linearAttention', (a) => a.linearAttention(Q, K, V, { features: 64, seed: 3 })],
    ['linearAttention causal', (a) => a.linearAttention(Q, Q, randMatrix(rng(seed + 5), 37, 9), { causal: true })],
    ['multiHeadAttention self', (a) => a.multiHeadAttention(X, null, layer)],
    ['multiHeadAttention cross, fused, causal', (a) => a.multiHeadAttention(X, Y, { ...layer, weights: false, causal: true })],
    ['multiHeadAttentionLayer.run', (a) => {
      const l = a.multiHeadAttentionLayer(layer);
      try {
        return l.run(X, null, { window: 3 });
      } finally {
        l.dispose();
      }
    }],
  ];
  const windows = [{ window: 5 }, { window: 2, globalTokens: [0, 30] }];
  for (const options of [...MASK_KINDS.map((kind) => makeMasks(rng(seed + 10), kind, 37, 45)), ...windows]) {
    const kind = JSON.stringify(Object.keys(options));
    for (const weights of [true, false]) {
      calls.push([`attention masks=${kind} weights=${weights}`, (a) => a.attention(Q, K, V, { ...options, weights })]);
    }
  }
  return calls;
}

// Results with their lazy parts read (multi-head's heads), for a deep compare.
const plain = (r) => (r && typeof r === 'object' && 'heads' in r ? { ...r, heads: r.heads } : r);

forEachBuild('the attention part alone', (attn, build) => {
  const part = small[build.name];

  it("is the build asked for, with parts 'attention', its own compiled module", () => {
    assert.equal(part.build, build.name);
    assert.equal(part.parts, 'attention');
    assert.equal(attn.parts, 'all');
    assert.ok(part.module instanceof WebAssembly.Module && part.module !== attn.module);
  });

  it("gives the full engine's result, bit for bit, for every forward call", () => {
    for (const [what, call] of forwardCalls(26100)) {
      // typed arrays compare byte by byte (so -0 against 0 would fail)
      assert.deepStrictEqual(plain(call(part)), plain(call(attn)), what);
    }
    assert.equal(part.memoryInUse(), 0);
  });

  it("throws an Error naming parts: 'all' for every training call, and keeps working", () => {
    const rs = rng(26200);
    const [Q, K, V, dO] = [randMatrix(rs, 4, 8), randMatrix(rs, 5, 8), randMatrix(rs, 5, 8), randMatrix(rs, 4, 8)];
    const W = randMatrix(rs, 8, 8);
    const layer = { heads: 2, Wq: W, Wk: W, Wv: W, Wo: W };
    const resident = part.multiHeadAttentionLayer(layer);
    const calls = {
      attentionBackward: () => part.attentionBackward(Q, K, V, dO),
      multiHeadAttentionBackward: () => part.multiHeadAttentionBackward(Q, null, dO, layer),
      createTransformer: () => part.createTransformer({ vocab: 5, context: 4, dModel: 8, heads: 2, layers: 1 }),
      'layer.backward': () => resident.backward(Q, null, dO),
    };
    const before = part.memoryInUse();
    for (const [name, call] of Object.entries(calls)) {
      assert.throws(call, (err) => err.constructor === Error && err.message.includes(`${name} is in the training part`)
        && err.message.includes("parts: 'attention'") && err.message.includes("loadAttention({ parts: 'all' })"), name);
      // and with bad arguments too: the missing part is what the Error says
      assert.throws(() => (name === 'layer.backward' ? resident.backward() : part[name]()), /in the training part/, name);
    }
    assert.equal(part.memoryInUse(), before, 'nothing allocated by the refused calls');
    resident.dispose();
    assert.equal(part.memoryInUse(), 0);
    assert.deepStrictEqual(part.attention(Q, K, V), attn.attention(Q, K, V));
  });
});
