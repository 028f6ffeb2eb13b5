// gpt.test.js: the GPT block of the trainer (createTransformer with mlp and
// layerNorm; src/gpt_block.c, src/train.c) against the float64 reference
// (tests/transformer-reference.js), whose gradients are first checked by
// central finite differences; a PyTorch 1.13 AdamW trajectory (fixture and
// the script that made it); both builds and their agreement.
//
// Tolerances as in transformer.test.js (rtol 1e-4 normwise: a value passes
// through at most 2L + 3 products of depth <= 4 C = 48 here, each within
// ~gamma_48 = 3e-6 of the sum of its terms' sizes), plus LayerNorm, whose
// 1/sigma can amplify the error of x - mean by |x| / sigma: a few units on
// these inputs. GELU's erf is within 4.2e-7 (tests/native). Measured errors
// are 3e-7 to 1.2e-6.
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
const FLAGS = [{ mlp: true, layerNorm: true }, { mlp: true, layerNorm: false }, { mlp: false, layerNorm: true }];
// Widths 4, 8 and 12 (hidden 16, 32, 48), heads of 1 to 4 columns, vocab not a multiple of 4, 0 to 3 layers.
const SIZES = [
  { vocab: 5, context: 4, dModel: 4, heads: 2, layers: 2 },
  { vocab: 7, context: 6, dModel: 8, heads: 2, layers: 1 },
  { vocab: 11, context: 9, dModel: 12, heads: 3, layers: 2 },
  { vocab: 3, context: 5, dModel: 8, heads: 8, layers: 3 },
  { vocab: 6, context: 3, dModel: 4, heads: 1, layers: 0 },
];
const isBk = (name) => name.endsWith('.bk'); // exactly 0 in float32, ~1e-16 in the reference
const fixture = () => JSON.parse(readFileSync(new URL('./fixtures/gpt_adamw.json', import.meta.url)));

describe('the float64 reference of the GPT block', () => {
  test('erf: odd, erf(0.5), erf(1), erf(2), erf(3.5) to 1e-15; continuous across 3 (to the series\' rounding there, ~1e-14)', () => {
    const known = [[0.5, 0.5204998778130465], [1, 0.8427007929497149], [2, 0.9953222650189527], [3.5, 0.9999992569016276]];
    for (const [x, want] of known) {
      assert.ok(Math.abs(R.erf(x) - want) < 1e-15, `erf(${x}) = ${R.erf(x)}`);
      assert.equal(R.erf(-x), -R.erf(x));
    }
    assert.ok(Math.abs(R.erf(3 - 1e-12) - R.erf(3)) < 5e-14);
  });

  for (const flags of FLAGS) {
    test(`its gradients equal central finite differences (${JSON.stringify(flags)}, with and without a head off)`, () => {
      const cfg = { ...SIZES[0], ...flags };
      const P = randomParameters(cfg, 11);
      const seqs = [[0, 3, 1, 4, 2], [2, 2, 0, 1, 3], [4, 1, 1, 0, 2]];
      for (const off of [[], [{ 1: true }]]) assertGradientsMatchFiniteDifferences(P, cfg, seqs, off, 2e-8);
    });
  }

  test('matches PyTorch 1.13 (fixture): losses, first gradients, parameters after each AdamW step', () => {
    assertReferenceFollowsFixture(fixture());
  });
});

forEachBuild('GPT block', (attn) => {
  test('parameter names and shapes are DESIGN.md\'s, in block order, for every combination of mlp and layerNorm', () => {
    for (const flags of FLAGS) {
      const cfg = { vocab: 6, context: 5, dModel: 8, heads: 2, layers: 2, ...flags };
      const m = attn.createTransformer(cfg);
      const p = m.parameters();
      assert.deepEqual(Object.keys(p), R.layout(cfg).map((t) => t.name));
      for (const t of R.layout(cfg)) assert.equal(p[t.name].length, t.rows * t.cols, t.name);
      assert.equal(m.mlp, flags.mlp);
      assert.equal(m.layerNorm, flags.layerNorm);
      m.dispose();
    }
  });

  test('gradients and losses match the float64 reference (sizes around the lane width, every flag combination)', () => {
    for (const flags of FLAGS) {
      SIZES.forEach((size, c) => {
        const cfg = { ...size, ...flags };
        for (const length of [2, cfg.context + 1]) {
          const m = attn.createTransformer({ ...cfg, seed: c });
          const seqs = sequences(cfg, 3, length, 100 + c);
          const want = R.gradients(R.zeros(cfg, m.parameters()), cfg, seqs);
          const got = m.gradients(seqs);
          const label = `${JSON.stringify(cfg)}, length ${length}`;
          assert.ok(Math.abs(got.loss - want.loss) <= RTOL * want.loss, `${label}: loss ${got.loss} vs ${want.loss}`);
          assertTensorsClose(got.grads, want.grads, RTOL, label, { atol: 1e-7, skip: isBk });
          for (let l = 0; l < cfg.layers; l++) assert.ok(got.grads[`layers.${l}.bk`].every((x) => x === 0), 'dbk is exactly 0');
          const { perToken } = m.loss(seqs);
          perToken.forEach((x, i) => assert.ok(Math.abs(x - want.losses[i]) <= RTOL * Math.max(1, want.losses[i]), `${label}: loss ${i}`));
          m.dispose();
        }
      });
    }
    assert.equal(attn.memoryInUse(), 0);
  });

  test('logits, attention and a switched-off head match the reference', () => {
    const cfg = { ...SIZES[2], mlp: true, layerNorm: true };
    const m = attn.createTransformer({ ...cfg, seed: 4 });
    const seq = sequences(cfg, 1, cfg.context + 1, 9)[0];
    const P = R.zeros(cfg, m.parameters());
    const want = R.forwardOne(P, cfg, seq);
    assertTensorsClose({ logits: m.logits(seq).data }, { logits: want.logits }, RTOL, 'logits');
    m.attention(seq).forEach((heads, l) => heads.forEach((W, h) => assertTensorsClose({ W: W.data }, { W: want.att[l][h] }, RTOL, `attention ${l}.${h}`, { atol: 1e-7 })));
    m.ablate(1, 2);
    const off = [{}, { 2: true }];
    const seqs = sequences(cfg, 2, 7, 21);
    const wantOff = R.gradients(P, cfg, seqs, off);
    assertTensorsClose(m.gradients(seqs).grads, wantOff.grads, RTOL, 'with a head off', { atol: 1e-7, skip: isBk });
    m.dispose();
  });

  test('AdamW steps follow the float64 reference trajectory and PyTorch 1.13 (fixture)', () => {
    assertTrainerFollowsFixture(attn, fixture(), RTOL);
  });

  test('initialisation: W1 1/sqrt(d), W2 1/sqrt(4d), LayerNorm gains 1 and biases 0; the same stream of draws as without the block', () => {
    const d = 64;
    const m = attn.createTransformer({ vocab: 256, context: 128, dModel: d, heads: 4, layers: 1, mlp: true, layerNorm: true, seed: 3 });
    const p = m.parameters();
    const std = (x) => Math.sqrt(x.reduce((s, v) => s + v * v, 0) / x.length);
    for (const [name, sigma] of Object.entries({ 'layers.0.W1': 1 / Math.sqrt(d), 'layers.0.W2': 1 / Math.sqrt(4 * d), 'layers.0.Wq': 1 / Math.sqrt(d) })) {
      assert.ok(Math.abs(std(p[name]) / sigma - 1) < 0.04, `${name}: std ${std(p[name])}, expected ${sigma}`);
    }
    for (const name of ['layers.0.ln1.g', 'layers.0.ln2.g', 'lnf.g']) assert.ok(p[name].every((v) => v === 1), name);
    for (const name of ['layers.0.ln1.b', 'layers.0.ln2.b', 'lnf.b', 'layers.0.b1', 'layers.0.b2']) assert.ok(p[name].every((v) => v === 0), name);
    // the tensors drawn before the first GPT-only one come from the same stream
    const plain = attn.createTransformer({ vocab: 256, context: 128, dModel: d, heads: 4, layers: 1, seed: 3 });
    const q = plain.parameters();
    for (const name of ['tok', 'pos', 'layers.0.Wq', 'layers.0.Wk', 'layers.0.Wv', 'layers.0.Wo']) assert.deepEqual(q[name], p[name], name);
    m.dispose();
    plain.dispose();
  });
});

test('SIMD and scalar builds agree on the GPT block: the same initialisation, and 20 training steps', () => {
  assertBuildsTrainAlike({ vocab: 30, context: 32, dModel: 32, heads: 4, layers: 2, mlp: true, layerNorm: true, seed: 1 }, RTOL);
});

describe('GPT options: clear errors, nothing left allocated', () => {
  for (const { name, attn } of builds) {
    test(`mlp and layerNorm must be booleans; sizes are checked with the block's extra tensors [${name}]`, () => {
      const start = attn.memoryInUse();
      const cfg = { vocab: 5, context: 4, dModel: 4, heads: 2, layers: 1 };
      assert.throws(() => attn.createTransformer({ ...cfg, mlp: 1 }), (e) => e instanceof TypeError && /mlp must be true or false/.test(e.message));
      assert.throws(() => attn.createTransformer({ ...cfg, layerNorm: 'yes' }), (e) => e instanceof TypeError && /layerNorm must be true or false/.test(e.message));
      // 8 d^2 floats more per layer with the MLP: 1.1 GiB without it (not made here), 3.2 GiB with it
      const big = { vocab: 2, context: 1, dModel: 2048, heads: 1, layers: 4 };
      assert.throws(() => attn.createTransformer({ ...big, mlp: true }), (e) => e instanceof RangeError && /GiB/.test(e.message));
      assert.equal(attn.memoryInUse(), start);
    });
  }
});
