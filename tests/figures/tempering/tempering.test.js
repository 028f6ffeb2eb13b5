// attention-tempering: scaled scores keep unit variance; unscaled softmax collapses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { engine } from '../../kit/engine.js';
import { loadAttention } from '../../../web/attention.js';
import { temperingModel, spread, entropy, KEYS } from '../../../web/figures/tempering/tempering.model.js';

const attn = await engine();
const DKS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512];

test('scaled dot products keep unit variance as d_k grows; unscaled ones grow like d_k', () => {
  // 65536 products of fixed seeded samples; the estimate's own spread is a few percent
  for (const dk of DKS) {
    const m = temperingModel(attn, { dk });
    assert.ok(m.scaled.variance > 0.85 && m.scaled.variance < 1.15, `d_k=${dk}: scaled variance ${m.scaled.variance}`);
    const ratio = m.raw.variance / dk;
    assert.ok(ratio > 0.85 && ratio < 1.15, `d_k=${dk}: raw variance / d_k = ${ratio}`);
  }
});

test('without the division the softmax collapses toward one-hot; with it the spread stays', () => {
  const small = temperingModel(attn, { dk: 1 });
  const big = temperingModel(attn, { dk: 512 });
  assert.ok(big.unscaledSoftmax.top > 0.9, `largest weight ${big.unscaledSoftmax.top}`);
  assert.ok(big.unscaledSoftmax.entropy < 0.3, `entropy ${big.unscaledSoftmax.entropy} bits`);
  let last = Infinity;
  for (const dk of DKS) {
    const m = temperingModel(attn, { dk });
    assert.ok(m.unscaledSoftmax.entropy <= last + 1e-9, `unscaled entropy falls with d_k (${dk})`);
    last = m.unscaledSoftmax.entropy;
    assert.ok(Math.abs(m.scaledSoftmax.entropy - small.scaledSoftmax.entropy) < 0.4, `scaled entropy at d_k=${dk}`);
  }
});

test('the extra temperature: near 0 one-hot, very large uniform; weights always sum to 1', () => {
  const cold = temperingModel(attn, { dk: 64, tau: 0.001 });
  const hot = temperingModel(attn, { dk: 64, tau: 1e4 });
  assert.ok(cold.scaledSoftmax.top > 0.999 && cold.scaledSoftmax.entropy < 0.01);
  assert.ok(Math.abs(hot.scaledSoftmax.entropy - Math.log2(KEYS)) < 1e-3);
  for (const m of [cold, hot, temperingModel(attn, { dk: 8, tau: 0.3 })]) {
    for (const w of [m.unscaledSoftmax.example, m.scaledSoftmax.example]) {
      assert.ok(Math.abs(w.reduce((a, b) => a + b, 0) - 1) < 1e-5);
    }
  }
});

test('histograms count every product', () => {
  const m = temperingModel(attn, { dk: 32 });
  for (const h of [m.raw.histogram, m.scaled.histogram]) assert.equal(h.reduce((a, b) => a + b, 0), 256 * 256);
  assert.equal(entropy([0.5, 0.5, 0]), 1);
});

test('a d_k gives the same numbers whichever d_k came before (the copies and products reuse their arrays)', async () => {
  const other = await loadAttention(); // its own kept spreads
  const first = temperingModel(other, { dk: 24 });
  for (const dk of [512, 3, 24, 100]) temperingModel(attn, { dk });
  const after = temperingModel(attn, { dk: 24 });
  for (const key of ['raw', 'scaled']) assert.deepEqual(after[key], first[key], key);
  assert.deepEqual(spread(attn, 24).scores.data, spread(other, 24).scores.data);
  assert.deepEqual(after.scaledSoftmax, first.scaledSoftmax);
});
