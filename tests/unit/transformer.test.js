// transformer.test.js: the trainer (createTransformer, src/train.c) against
// its float64 reference (tests/transformer-reference.js), whose gradients are
// checked first against central finite differences; a PyTorch trajectory
// (tests/fixtures/, with the script that made it); both builds, and their
// agreement; determinism; ablation; parameters in and out; bad input.
//
// Tolerances. Float32 results are compared per tensor, normwise: every value
// may be off by rtol times the tensor's largest reference magnitude. A value
// passes through at most 2L + 3 products (L layers: the unembedding, per
// layer Wo, the attention and one of Wq/Wk/Wv, back through the same) of
// depth k <= max(B T, C, vocab) = 60 here, each off by at most gamma_k
// (about 60 u = 4e-6) relative to the sum of |terms|, which these
// well-scaled inputs keep within a few times the result: rtol = 1e-4 covers
// that chain (~2e-5) with a margin. Measured errors are 1e-6 to 1e-5.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { builds, forEachBuild } from './helpers.js';
import * as R from './transformer-reference.js';
import {
  sequences, assertTensorsClose, randomParameters, assertGradientsMatchFiniteDifferences,
  assertReferenceFollowsFixture, assertTrainerFollowsFixture, assertBuildsTrainAlike,
} from './transformer-helpers.js';

const RTOL = 1e-4;
const TINY = { vocab: 5, context: 4, dModel: 4, heads: 2, layers: 2 };
// Sizes around the lane width (4): widths 4, 8 and 12, heads of 1 to 4 columns, vocab not a multiple of 4.
const CONFIGS = [
  TINY,
  { vocab: 7, context: 6, dModel: 8, heads: 2, layers: 1 },
  { vocab: 11, context: 9, dModel: 12, heads: 3, layers: 2 },
  { vocab: 3, context: 5, dModel: 8, heads: 8, layers: 3 },
  { vocab: 6, context: 3, dModel: 4, heads: 1, layers: 0 },
];

const fixture = () => JSON.parse(readFileSync(new URL('./fixtures/transformer_adamw.json', import.meta.url)));
const offMap = (list, layers) => Array.from({ length: layers }, (_, l) => list.filter(([ll]) => ll === l).reduce((o, [, h]) => ({ ...o, [h]: true }), {}));

describe('the float64 reference', () => {
  test('its gradients equal central finite differences (tiny model, with and without a head off)', () => {
    const P = randomParameters(TINY, 11);
    const seqs = [[0, 3, 1, 4, 2], [2, 2, 0, 1, 3], [4, 1, 1, 0, 2]];
    for (const off of [[], offMap([[0, 1]], 2)]) assertGradientsMatchFiniteDifferences(P, TINY, seqs, off, 1e-8);
  });

  test('matches PyTorch 1.13 (fixture): losses, first gradients, parameters after each AdamW step', () => {
    assertReferenceFollowsFixture(fixture());
  });
});

forEachBuild('transformer', (attn) => {
  test('gradients and losses match the float64 reference (sizes around the lane width)', () => {
    CONFIGS.forEach((cfg, c) => {
      for (const length of [2, cfg.context + 1]) {
        const m = attn.createTransformer({ ...cfg, seed: c });
        const seqs = sequences(cfg, 3, length, 100 + c);
        const P = R.zeros(cfg, m.parameters());
        const want = R.gradients(P, cfg, seqs);
        const got = m.gradients(seqs);
        const label = `${JSON.stringify(cfg)}, length ${length}`;
        assert.ok(Math.abs(got.loss - want.loss) <= RTOL * want.loss, `${label}: loss ${got.loss} vs ${want.loss}`);
        // atol: a gradient that is exactly 0 (q and k of a one-token
        // sequence) comes out as rounding noise of terms of size ~0.1
        assertTensorsClose(got.grads, want.grads, RTOL, label, { atol: 1e-7 });
        for (let l = 0; l < cfg.layers; l++) assert.ok(got.grads[`layers.${l}.bk`].every((x) => x === 0), 'dbk is exactly 0');
        const { mean, perToken } = m.loss(seqs);
        assert.ok(Math.abs(mean - want.loss) <= RTOL * want.loss);
        assert.equal(perToken.length, 3 * (length - 1));
        perToken.forEach((x, i) => assert.ok(Math.abs(x - want.losses[i]) <= RTOL * Math.max(1, want.losses[i]), `${label}: loss ${i}`));
        m.dispose();
      }
    });
    assert.equal(attn.memoryInUse(), 0);
  });

  test('logits and attention of one sequence match the reference', () => {
    const cfg = CONFIGS[2];
    const m = attn.createTransformer({ ...cfg, seed: 4 });
    const seq = sequences(cfg, 1, cfg.context + 1, 9)[0];
    const want = R.forwardOne(R.zeros(cfg, m.parameters()), cfg, seq);
    const logits = m.logits(seq);
    assert.deepEqual([logits.rows, logits.cols], [cfg.context, cfg.vocab]);
    assertTensorsClose({ logits: logits.data }, { logits: want.logits }, RTOL, 'logits');
    const weights = m.attention(Int32Array.from(seq));
    assert.equal(weights.length, cfg.layers);
    weights.forEach((heads, l) => heads.forEach((W, h) => {
      assert.deepEqual([W.rows, W.cols], [cfg.context, cfg.context]);
      assertTensorsClose({ W: W.data }, { W: want.att[l][h] }, RTOL, `attention ${l}.${h}`, { atol: 1e-7 });
      for (let i = 0; i < W.rows; i++) for (let j = i + 1; j < W.cols; j++) assert.equal(W.data[i * W.cols + j], 0, 'causal: the future gets exactly 0');
    }));
    m.dispose();
  });

  test('a switched-off head matches the reference with that head off, in the loss and every gradient', () => {
    const cfg = CONFIGS[2];
    const m = attn.createTransformer({ ...cfg, seed: 5 });
    const seqs = sequences(cfg, 2, 7, 21);
    const P = R.zeros(cfg, m.parameters());
    const before = m.loss(seqs).mean;
    m.ablate(0, 1);
    m.ablate(1, 2, true);
    const off = offMap([[0, 1], [1, 2]], cfg.layers);
    const want = R.gradients(P, cfg, seqs, off);
    const got = m.gradients(seqs);
    assert.notEqual(got.loss, before);
    assert.ok(Math.abs(got.loss - want.loss) <= RTOL * want.loss);
    assertTensorsClose(got.grads, want.grads, RTOL, 'with heads off', { atol: 1e-7 });
    for (const w of ['Wq', 'Wk', 'Wv']) {
      const g = got.grads[`layers.0.${w}`];
      for (let r = 0; r < cfg.dModel; r++) for (let c = 4; c < 8; c++) assert.equal(g[r * cfg.dModel + c], 0, `a head that is off learns nothing (${w})`);
    }
    m.ablate(0, 1, false);
    m.ablate(1, 2, false);
    assert.equal(m.loss(seqs).mean, before, 'switched back on, the model is what it was');
    m.dispose();
  });

  test('AdamW steps follow the float64 reference trajectory and PyTorch 1.13 (fixture)', () => {
    assertTrainerFollowsFixture(attn, fixture(), RTOL);
  });

  test('the same seed gives the same model and the same training, bit for bit; another seed another model', () => {
    const cfg = { vocab: 9, context: 8, dModel: 8, heads: 2, layers: 2 };
    const train = (seed) => {
      const m = attn.createTransformer({ ...cfg, seed });
      const first = m.parameters();
      const losses = [0, 1, 2].map((k) => m.trainStep(sequences(cfg, 4, 9, 50 + k), { lr: 0.01 }));
      const out = { first, losses, last: m.parameters() };
      m.dispose();
      return out;
    };
    const [a, b, c] = [train(7), train(7), train(8)];
    assert.deepEqual(a, b);
    assert.notDeepEqual(a.first.tok, c.first.tok);
  });

  test('initialisation: uniform with the stated standard deviations, biases 0', () => {
    const d = 64;
    const m = attn.createTransformer({ vocab: 256, context: 128, dModel: d, heads: 4, layers: 1, seed: 3 });
    const p = m.parameters();
    const std = (x) => Math.sqrt(x.reduce((s, v) => s + v * v, 0) / x.length);
    const cases = { tok: 1, pos: 1, 'layers.0.Wq': 1 / Math.sqrt(d), 'layers.0.Wo': 1 / Math.sqrt(d), Wu: 0.02 };
    for (const [name, sigma] of Object.entries(cases)) {
      // n >= 4096 values: the sample deviation is within 4% of sigma (many standard errors)
      assert.ok(Math.abs(std(p[name]) / sigma - 1) < 0.04, `${name}: std ${std(p[name])}, expected ${sigma}`);
      assert.ok(p[name].every((v) => Math.abs(v) <= Math.sqrt(3) * sigma), `${name}: within the uniform's range`);
    }
    for (const name of ['layers.0.bq', 'layers.0.bk', 'layers.0.bv', 'layers.0.bo', 'bu']) assert.ok(p[name].every((v) => v === 0), name);
    m.dispose();
  });

  test('parameters() and setParameters(): names, shapes, round trip, partial updates', () => {
    const cfg = { vocab: 6, context: 5, dModel: 8, heads: 2, layers: 2 };
    const m = attn.createTransformer(cfg);
    const p = m.parameters();
    assert.deepEqual(Object.keys(p), R.layout(cfg).map((t) => t.name));
    for (const t of R.layout(cfg)) assert.equal(p[t.name].length, t.rows * t.cols, t.name);
    const seq = [1, 2, 3, 4, 5, 0];
    const before = m.logits(seq);
    const changed = { Wu: p.Wu.map((x) => 2 * x), 'layers.1.bo': Array.from({ length: 8 }, (_, i) => i / 8) };
    m.setParameters(changed);
    const q = m.parameters();
    assert.deepEqual(q.Wu, Float32Array.from(changed.Wu));
    assert.deepEqual(q['layers.1.bo'], Float32Array.from(changed['layers.1.bo']));
    assert.deepEqual(q.tok, p.tok, 'what was not named stays');
    assert.notDeepEqual(m.logits(seq), before);
    m.setParameters(p);
    assert.deepEqual(m.logits(seq), before);
    p.tok[0] = 123; // results are copies
    assert.notEqual(m.parameters().tok[0], 123);
    m.dispose();
  });
});

forEachBuild('transformer: the update alone', (attn) => {
  test('gradients() then update() with its grads: trainStep\'s parameters and step count, to the bit', () => {
    const cfg = { vocab: 6, context: 5, dModel: 8, heads: 2, layers: 2, mlp: true, layerNorm: true, seed: 3 };
    const [a, b] = [attn.createTransformer(cfg), attn.createTransformer(cfg)];
    for (let step = 0; step < 4; step++) {
      const seqs = sequences(cfg, 3, 6, 40 + step);
      const la = a.trainStep(seqs, { lr: 0.02 });
      const { loss, grads } = b.gradients(seqs);
      b.update(grads, { lr: 0.02 });
      assert.equal(loss, la);
      assert.equal(b.steps, a.steps);
    }
    const [pa, pb] = [a.parameters(), b.parameters()];
    for (const name of Object.keys(pa)) assert.ok(pa[name].every((v, j) => Object.is(v, pb[name][j])), name);
    a.dispose();
    b.dispose();
  });
});

test('SIMD and scalar builds agree: the same initialisation, and the figure model training for 20 steps', () => {
  assertBuildsTrainAlike({ vocab: 32, context: 32, dModel: 32, heads: 2, layers: 2, seed: 1 }, RTOL);
});

describe('bad input: clear errors, nothing left allocated', () => {
  for (const { name, attn } of builds) {
    test(`createTransformer and every method [${name}]`, () => {
      const start = attn.memoryInUse();
      const cfg = { vocab: 5, context: 4, dModel: 4, heads: 2, layers: 1 };
      const bad = [
        [() => attn.createTransformer(), TypeError, /vocab is required/],
        [() => attn.createTransformer({ ...cfg, vocab: 0 }), RangeError, /vocab must be a whole number from 1/],
        [() => attn.createTransformer({ ...cfg, dModel: 2.5 }), RangeError, /dModel/],
        [() => attn.createTransformer({ ...cfg, heads: 3 }), RangeError, /heads \(3\) must divide dModel \(4\)/],
        [() => attn.createTransformer({ ...cfg, layers: -1 }), RangeError, /layers/],
        [() => attn.createTransformer({ ...cfg, layers: '2' }), TypeError, /layers must be a number/],
        [() => attn.createTransformer({ ...cfg, mlp: 1 }), TypeError, /mlp must be true or false/],
        [() => attn.createTransformer({ ...cfg, layerNorm: 1 }), TypeError, /layerNorm must be true or false/],
        [() => attn.createTransformer({ ...cfg, seed: -1 }), RangeError, /seed/],
        [() => attn.createTransformer({ ...cfg, dModel: 1 << 20, vocab: 1 << 20 }), RangeError, /GiB/],
      ];
      for (const [call, type, message] of bad) assert.throws(call, (e) => e instanceof type && message.test(e.message), String(call));
      assert.equal(attn.memoryInUse(), start);

      const m = attn.createTransformer(cfg);
      const held = attn.memoryInUse();
      const ok = [[0, 1, 2], [3, 4, 0]];
      const calls = [
        [() => m.trainStep([], { lr: 0.1 }), RangeError, /sequences is empty/],
        [() => m.trainStep([0, 1, 2]), TypeError, /array of token sequences/],
        [() => m.trainStep('abc'), TypeError, /array of token sequences/],
        [() => m.trainStep([[0, 1, 2], [3, 4]]), RangeError, /sequences\[1\] has 2 tokens, expected 3/],
        [() => m.trainStep([[0, 1, 2, 3, 4, 0]]), RangeError, /needs 2 to context \+ 1 = 5/],
        [() => m.trainStep([[0]]), RangeError, /needs 2 to/],
        [() => m.trainStep([[0, 1, 5]]), RangeError, /sequences\[0\]\[2\] is 5; token ids are whole numbers from 0 to vocab - 1 = 4/],
        [() => m.trainStep([[0, -1, 2]]), RangeError, /sequences\[0\]\[1\] is -1/],
        [() => m.trainStep([[0, 1.5, 2]]), RangeError, /is 1.5/],
        [() => m.trainStep([[0, NaN, 2]]), RangeError, /is NaN/],
        [() => m.trainStep([[0, '1', 2]]), TypeError, /sequences\[0\]\[1\] is string/],
        [() => m.trainStep([[0, 1, 2], null]), TypeError, /sequences\[1\] must be an array/],
        [() => m.trainStep(ok, { lr: 0 }), RangeError, /lr must be finite and > 0, got 0/],
        [() => m.trainStep(ok, { lr: -1 }), RangeError, /lr must be finite and > 0/],
        [() => m.trainStep(ok, { lr: NaN }), RangeError, /lr must be finite and > 0, got NaN/],
        [() => m.trainStep(ok, { lr: Infinity }), RangeError, /lr/],
        [() => m.trainStep(ok, { lr: '0.1' }), TypeError, /lr must be a number/],
        [() => m.trainStep(ok, { beta1: 1 }), RangeError, /beta1 must be in \[0, 1\)/],
        [() => m.trainStep(ok, { beta2: -0.1 }), RangeError, /beta2/],
        [() => m.trainStep(ok, { eps: -1 }), RangeError, /eps must be finite and >= 0/],
        [() => m.trainStep(ok, { weightDecay: NaN }), RangeError, /weightDecay/],
        [() => m.trainStep(ok, 5), TypeError, /trainStep options must be an object/],
        [() => m.loss([]), RangeError, /empty/],
        [() => m.gradients([[9, 9]]), RangeError, /is 9/],
        [() => m.logits([[0, 1, 2]]), TypeError, /sequence must be an array of token ids/],
        [() => m.logits([0, 7]), RangeError, /sequence\[1\] is 7/],
        [() => m.attention([0, 1, 2, 3, 4, 0]), RangeError, /sequence has 6 tokens/],
        [() => m.attention([]), RangeError, /sequence has 0 tokens/],
        [() => m.ablate(1, 0), RangeError, /layer must be a whole number from 0 to 0/],
        [() => m.ablate(0, 2), RangeError, /head must be a whole number from 0 to 1/],
        [() => m.ablate(0, 0, 'yes'), TypeError, /off must be true or false/],
        [() => m.setParameters({ wq: [1] }), RangeError, /unknown parameter wq; this model has tok, pos, layers\.0\.Wq/],
        [() => m.setParameters({ tok: [1, 2, 3] }), RangeError, /tok has 3 values, expected 5 x 4 = 20/],
        [() => m.setParameters({ bu: [0, 0, 0, 0, NaN] }), RangeError, /bu\[4\] is NaN; values must be finite/],
        [() => m.setParameters({ bu: [0, 0, 0, 0, 1e39] }), RangeError, /finite \(as float32\)/],
        [() => m.setParameters({ bu: [0, 0, 0, 0, '1'] }), TypeError, /bu\[4\] is string/],
        [() => m.setParameters({ bu: 5 }), TypeError, /bu must be an array of numbers/],
        [() => m.update(null), TypeError, /update takes the gradients as an object/],
        [() => m.update({ wq: [1] }), RangeError, /update: unknown parameter wq/],
        [() => m.update({ tok: new Float32Array(20) }), TypeError, /update: the gradient of pos is missing/],
        [() => m.update({ ...m.gradients(ok).grads, bu: [1, 2] }), RangeError, /the gradient of bu must have 5 values \(1 x 5\)/],
        [() => m.update({ ...m.gradients(ok).grads, bu: [0, 0, Infinity, 0, 0] }), RangeError, /the gradient of bu has Infinity at 2; values must be finite/],
        [() => m.update(m.gradients(ok).grads, { lr: 0 }), RangeError, /lr must be finite and > 0, got 0/],
        [() => m.setParameters([1, 2]), TypeError, /setParameters takes an object/],
        [() => m.trainStep(new Array(2 ** 23).fill(ok[0])), RangeError, /2 GiB/],
      ];
      const before = m.parameters();
      for (const [call, type, message] of calls) {
        assert.throws(call, (e) => e instanceof type && message.test(e.message), String(call));
        assert.equal(attn.memoryInUse(), held, `${call} left memory behind`);
      }
      // a setParameters with one bad tensor changes none
      assert.throws(() => m.setParameters({ Wu: new Float32Array(20).fill(1), bu: [1] }), RangeError);
      assert.deepEqual(m.parameters(), before, 'nothing was written');
      assert.equal(m.steps, 0, 'no step was taken');
      m.dispose();
      assert.equal(attn.memoryInUse(), start);
      for (const use of [() => m.trainStep(ok), () => m.loss(ok), () => m.gradients(ok), () => m.logits([0, 1]), () => m.attention([0, 1]),
        () => m.ablate(0, 0), () => m.parameters(), () => m.setParameters({}), () => m.steps]) {
        assert.throws(use, /this transformer was disposed/);
      }
      m.dispose(); // twice is harmless
      assert.equal(attn.memoryInUse(), start);
    });
  }
});
