// leaks.test.js: issue 5, item 2. Many mixed calls, throwing ones included,
// leave memoryInUse() exactly where it started; results stay valid after
// later calls and after the wasm memory grows (results are copies, never
// views that a growth would detach or a later call overwrite).
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { execFileSync } from 'node:child_process';

import { U, assertRowsSumToOne, forEachBuild, randMatrix, randVector, rng } from './helpers.js';

const CALLS = 40_000;
const SEED = 6000;

/**
 * The mix: every API function, valid calls on small random shapes (1..9,
 * so the loop stays fast) with every option, and calls that throw at each
 * stage: in JS validation before any allocation, and in the wasm input scan
 * after the inputs were copied in (NaN in the last input).
 */
function makeCalls(rs) {
  const n = () => 1 + rs.int(9);
  const mat = (r, c) => randMatrix(rs, r, c);
  const withNaN = (M) => {
    const data = M.data.slice();
    data[data.length - 1] = NaN;
    return { ...M, data };
  };
  return [
    ['matmul', (a) => { const [m, k, p] = [n(), n(), n()]; return a.matmul(mat(m, k), mat(k, p)); }],
    ['matmul transposeB', (a) => { const [m, k, p] = [n(), n(), n()]; return a.matmul(mat(m, k), mat(p, k), { transposeB: true }); }],
    ['softmax', (a) => a.softmax(mat(n(), n()), { temperature: 0.5 + rs.randomSample() })],
    ['positionalEncoding', (a) => a.positionalEncoding(n(), n())],
    ['attention', (a) => {
      const [q, k, d] = [n(), n(), n()];
      return a.attention(mat(q, d), mat(k, d), mat(k, n()), { causal: rs.randomSample() < 0.5 });
    }],
    ['attention fused, masks', (a) => {
      const [q, k, d] = [n(), n(), n()];
      const keyPaddingMask = Array.from({ length: k }, () => (rs.randomSample() < 0.3 ? 1 : 0));
      return a.attention(mat(q, d), mat(k, d), mat(k, 2), { weights: false, mask: mat(q, k), keyPaddingMask });
    }],
    ['multiHeadAttention', (a) => {
      const heads = 1 + rs.int(3);
      const d = heads * (1 + rs.int(3));
      const opts = { heads, Wq: mat(d, d), Wk: mat(d, d), Wv: mat(d, d), Wo: mat(d, d), bq: randVector(rs, d), bo: randVector(rs, d) };
      return a.multiHeadAttention(mat(n(), d), rs.randomSample() < 0.5 ? null : mat(n(), d), { ...opts, weights: rs.randomSample() < 0.5 });
    }],
    ['softmaxBackward', (a) => { const [r, c] = [n(), n()]; return a.softmaxBackward(a.softmax(mat(r, c)), mat(r, c), { temperature: 0.5 + rs.randomSample() }); }],
    ['attentionBackward', (a) => {
      const [q, k, d, v] = [n(), n(), n(), n()];
      const keyPaddingMask = Array.from({ length: k }, () => (rs.randomSample() < 0.3 ? 1 : 0));
      return a.attentionBackward(mat(q, d), mat(k, d), mat(k, v), mat(q, v), {
        weights: rs.randomSample() < 0.5, causal: rs.randomSample() < 0.5, keyPaddingMask, mask: rs.randomSample() < 0.5 ? mat(q, k) : null,
      });
    }],
    ['multiHeadAttentionBackward', (a) => {
      const heads = 1 + rs.int(3);
      const d = heads * (1 + rs.int(3));
      const q = n();
      const opts = { heads, Wq: mat(d, d), Wk: mat(d, d), Wv: mat(d, d), Wo: mat(d, d), bk: randVector(rs, d) };
      return a.multiHeadAttentionBackward(mat(q, d), rs.randomSample() < 0.5 ? null : mat(n(), d), mat(q, d), { ...opts, weights: rs.randomSample() < 0.5, causal: rs.randomSample() < 0.3 });
    }],
    ['attention, window and global tokens', (a) => {
      const [q, d] = [n(), n()];
      return a.attention(mat(q, d), mat(q, d), mat(q, 2), { weights: rs.randomSample() < 0.5, window: rs.int(3), globalTokens: [rs.int(q)], causal: rs.randomSample() < 0.5 });
    }],
    ['linearAttention', (a) => {
      const [q, k, d] = [n(), n(), n()];
      return a.linearAttention(mat(q, d), mat(k, d), mat(k, n()), { features: n(), seed: rs.int(100), causal: rs.randomSample() < 0.5 });
    }],
    ['transformer create, train, read, dispose', (a) => {
      const heads = 1 + rs.int(2);
      const cfg = { vocab: 2 + rs.int(8), context: 1 + rs.int(6), dModel: heads * (1 + rs.int(4)), heads, layers: rs.int(3), seed: rs.int(1000) };
      const m = a.createTransformer(cfg);
      try {
        const L = 2 + rs.int(cfg.context);
        const seqs = Array.from({ length: 1 + rs.int(3) }, () => Array.from({ length: L }, () => rs.int(cfg.vocab)));
        m.trainStep(seqs, { lr: 0.01 });
        if (cfg.layers) m.ablate(0, 0, rs.randomSample() < 0.5);
        return { data: m.loss(seqs).perToken, extra: [m.logits(seqs[0]), ...m.attention(seqs[0]).flat()] };
      } finally {
        m.dispose();
      }
    }],
    ['GPT block: create, train, generate (greedy, sample, beam), dispose', (a) => {
      const heads = 1 + rs.int(2);
      const cfg = { vocab: 2 + rs.int(8), context: 1 + rs.int(6), dModel: heads * (1 + rs.int(4)), heads, layers: rs.int(3), mlp: rs.randomSample() < 0.7, layerNorm: rs.randomSample() < 0.7 };
      const m = a.createTransformer(cfg);
      try {
        const seqs = [Array.from({ length: 2 + rs.int(cfg.context) }, () => rs.int(cfg.vocab))];
        m.trainStep(seqs, { lr: 0.01 });
        const strategy = ['greedy', 'sample', 'beam'][rs.int(3)];
        const g = m.generate(seqs[0], { steps: 1 + rs.int(2 * cfg.context), strategy, ...(strategy === 'beam' ? { beam: 1 + rs.int(4) } : {}) });
        return { data: Float32Array.from(g.logProbs), extra: [m.logits(seqs[0])] };
      } finally {
        m.dispose();
      }
    }],
    // Throwing calls.
    ['throws: shape mismatch', (a) => a.matmul(mat(2, 3), mat(2, 3))],
    ['throws: heads', (a) => a.multiHeadAttention(mat(2, 4), null, { heads: 3, Wq: mat(4, 4), Wk: mat(4, 4), Wv: mat(4, 4), Wo: mat(4, 4) })],
    ['throws: NaN in V (after Q and K are copied in)', (a) => a.attention(mat(3, 2), mat(4, 2), withNaN(mat(4, 2)))],
    ['throws: NaN in the mask, fused', (a) => a.attention(mat(3, 2), mat(4, 2), mat(4, 2), { weights: false, mask: withNaN(mat(3, 4)) })],
    ['throws: NaN in bo (last input of MHA)', (a) => a.multiHeadAttention(mat(2, 4), null, {
      heads: 2, Wq: mat(4, 4), Wk: mat(4, 4), Wv: mat(4, 4), Wo: mat(4, 4), bo: [0, 0, 0, NaN],
    })],
    ['throws: +Infinity in softmax input', (a) => a.softmax([[0, Infinity], [1, 2]])],
    ['throws: bad padding flag', (a) => a.attention(mat(2, 2), mat(2, 2), mat(2, 2), { keyPaddingMask: [0, 2] })],
    ['throws: too large', (a) => a.matmul({ rows: 65536, cols: 1, data: new Float32Array(65536) }, { rows: 1, cols: 65536, data: new Float32Array(65536) })],
    ['throws: positionalEncoding size', (a) => a.positionalEncoding(0, 3)],
    ['throws: NaN in dOutput (last input of the backward)', (a) => a.attentionBackward(mat(3, 2), mat(4, 2), mat(4, 2), withNaN(mat(3, 2)), { weights: rs.randomSample() < 0.5 })],
    ['throws: dY of the wrong shape', (a) => a.multiHeadAttentionBackward(mat(2, 4), null, mat(3, 4), { heads: 2, Wq: mat(4, 4), Wk: mat(4, 4), Wv: mat(4, 4), Wo: mat(4, 4) })],
    ['throws: NaN in dY (after the parameters are copied in)', (a) => a.multiHeadAttentionBackward(mat(2, 4), null, withNaN(mat(2, 4)), { heads: 2, Wq: mat(4, 4), Wk: mat(4, 4), Wv: mat(4, 4), Wo: mat(4, 4) })],
    ['throws: a global token twice', (a) => a.attention(mat(3, 2), mat(3, 2), mat(3, 2), { window: 1, globalTokens: [1, 1] })],
    ['throws: NaN in V of linearAttention (after Q and K are copied in)', (a) => a.linearAttention(mat(3, 2), mat(4, 2), withNaN(mat(4, 2)))],
    ['throws: transformer token out of range, ragged batch, lr NaN, bad parameter', (a) => {
      const m = a.createTransformer({ vocab: 4, context: 3, dModel: 4, heads: 2, layers: 1 });
      try {
        const bad = [() => m.trainStep([[0, 1, 4]]), () => m.loss([[0, 1], [2]]), () => m.trainStep([[0, 1]], { lr: NaN }), () => m.setParameters({ pos: [1] })];
        return bad[rs.int(bad.length)]();
      } finally {
        m.dispose();
      }
    }],
    ['throws: generate with a bad prompt or options', (a) => {
      const m = a.createTransformer({ vocab: 4, context: 3, dModel: 4, heads: 2, layers: 1, mlp: true, layerNorm: true });
      try {
        const bad = [() => m.generate([0, 4], { steps: 2 }), () => m.generate([], { steps: 2 }), () => m.generate([0], { steps: 0 }),
          () => m.generate([0], { steps: 2, strategy: 'top-k' }), () => m.generate([0], { steps: 2, strategy: 'beam', beam: 0 })];
        return bad[rs.int(bad.length)]();
      } finally {
        m.dispose();
      }
    }],
    ['throws: transformer heads', (a) => a.createTransformer({ vocab: 4, context: 3, dModel: 6, heads: 4, layers: 1 })],
  ];
}

/** A result's Float32Arrays: output/weights/heads, whatever the call returned. */
function arraysOf(result) {
  if (result.data) return [result.data, ...(result.extra ?? []).map((M) => M.data)];
  if (result.dQ) return [result.dQ, result.dK, result.dV].map((M) => M.data);
  if (result.dXq) {
    return ['dXq', 'dXkv', 'dWq', 'dWk', 'dWv', 'dWo', 'dbq', 'dbk', 'dbv', 'dbo']
      .map((key) => result[key]).filter(Boolean).map((x) => x.data ?? x);
  }
  return [result.output, ...(result.weights ? [].concat(result.weights) : []), ...(result.heads ?? [])]
    .filter(Boolean).map((M) => M.data);
}

forEachBuild('memory', (attn, build) => {
  it(`${CALLS} mixed calls, throwing ones included, leave memoryInUse() where it started`, () => {
    const seed = SEED + (build.simd ? 0 : 1);
    const rs = rng(seed);
    const calls = makeCalls(rs);
    const start = attn.memoryInUse();
    const kept = []; // early results and copies of their data
    const counts = { ok: 0, threw: 0 };
    for (let i = 0; i < CALLS; i++) {
      const [name, call] = calls[rs.int(calls.length)];
      let result = null;
      try {
        result = call(attn);
        counts.ok++;
      } catch (e) {
        assert.ok(e instanceof TypeError || e instanceof RangeError, `call ${i} (${name}, seed ${seed}) threw ${e}`);
        assert.ok(name.startsWith('throws'), `call ${i} (${name}, seed ${seed}) should not throw: ${e.message}`);
        counts.threw++;
      }
      if (result && name.startsWith('throws')) assert.fail(`call ${i} (${name}) should have thrown`);
      if (result && i < 200) kept.push({ name, arrays: arraysOf(result), copies: arraysOf(result).map((a) => a.slice()) });
      if (i % 1000 === 999) {
        assert.equal(attn.memoryInUse(), start, `memory in use drifted by call ${i} (seed ${seed})`);
      }
    }
    assert.equal(attn.memoryInUse(), start, `memory in use after ${CALLS} calls (seed ${seed})`);
    assert.ok(counts.threw > CALLS / 4 && counts.ok > CALLS / 4, `a real mix: ${JSON.stringify(counts)}`);
    // Results of the first calls are untouched by the 40,000 after them.
    for (const { name, arrays, copies } of kept) {
      arrays.forEach((a, k) => assert.deepEqual(a, copies[k], `an early ${name} result changed`));
    }
  });

  it('results survive wasm memory growth', () => {
    const seed = SEED + 10;
    const rs = rng(seed);
    const small = attn.attention(randMatrix(rs, 5, 4), randMatrix(rs, 7, 4), randMatrix(rs, 7, 3));
    const smallMha = attn.multiHeadAttention(randMatrix(rs, 4, 4), null, {
      heads: 2, Wq: randMatrix(rs, 4, 4), Wk: randMatrix(rs, 4, 4), Wv: randMatrix(rs, 4, 4), Wo: randMatrix(rs, 4, 4),
    });
    const before = [small, smallMha].flatMap(arraysOf).map((a) => a.slice());
    attn.memoryPeak(); // reset the peak count
    // N = 4096 with weights: a 64 MiB weight matrix, far past the 4 MiB the
    // module starts with, so the wasm memory must grow (and any view into the
    // old buffer would be detached: length 0).
    const N = 4096;
    const big = attn.attention(randMatrix(rs, N, 64), randMatrix(rs, N, 64), randMatrix(rs, N, 64));
    assert.ok(attn.memoryPeak() >= 4 * N * N, 'the big call used at least its N x N weights');
    assert.equal(attn.memoryInUse(), 0);
    [small, smallMha].flatMap(arraysOf).forEach((a, k) => {
      assert.equal(a.length, before[k].length, 'a result was detached by the memory growth');
      assert.deepEqual(a, before[k], 'a result changed after the memory grew');
    });
    // The big result itself is sound, and the module still works at small sizes.
    assert.equal(big.weights.data.length, N * N);
    const sample = { rows: 8, cols: N, data: big.weights.data.subarray(1000 * N, 1008 * N) };
    // |sum - 1| is the rounding of a float32 sum of N terms: at most N u.
    assertRowsSumToOne(sample, N * U, `rows 1000..1007 of the N = ${N} weights (seed ${seed})`);
    const again = attn.attention(randMatrix(rs, 5, 4), randMatrix(rs, 7, 4), randMatrix(rs, 7, 3));
    assert.equal(again.output.rows, 5);
    assert.equal(attn.memoryInUse(), 0);
  });
});

it('a forgotten transformer or layer is freed when collected (FinalizationRegistry)', () => {
  // A child process with --expose-gc, so that collection can be forced.
  const script = `
    import { loadAttention } from ${JSON.stringify(new URL('../../web/attention.js', import.meta.url).href)};
    const attn = await loadAttention();
    (() => {
      for (let k = 0; k < 10; k++) {
        const m = attn.createTransformer({ vocab: 8, context: 8, dModel: 8, heads: 2, layers: 2, seed: k });
        m.trainStep([[1, 2, 3, 4]], { lr: 0.01 });
        const W = [[1, 0], [0, 1]];
        attn.multiHeadAttentionLayer({ heads: 1, Wq: W, Wk: W, Wv: W, Wo: W });
      }
    })();
    const held = attn.memoryInUse();
    for (let i = 0; i < 50 && attn.memoryInUse() > 0; i++) {
      globalThis.gc();
      await new Promise((r) => setTimeout(r, 20));
    }
    console.log(JSON.stringify({ held, after: attn.memoryInUse() }));`;
  const out = execFileSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { encoding: 'utf8' });
  const { held, after } = JSON.parse(out);
  // each model: 4 blocks (parameters, gradients, two moments) of 776 floats
  assert.ok(held >= 10 * 4 * 776 * 4, `the models held their blocks (${held} bytes)`);
  assert.equal(after, 0, 'collected models and layers gave their wasm memory back');
});
