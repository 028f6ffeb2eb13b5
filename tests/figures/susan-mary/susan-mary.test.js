// attention-susan-mary: permutation equivariance, and positions breaking it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { engine } from '../../kit/engine.js';
import { susanMaryModel, GAVE } from '../../../web/figures/susan-mary/susan-mary.model.js';

const attn = await engine();
// Swapping two keys changes only the order of float32 sums over 5 terms of
// size ~1: a few ulps, so 1e-6 is a generous bound for "identical".
const SAME = 1e-6;

test('without positions y_gave is identical in both sentences', () => {
  const m = susanMaryModel(attn);
  assert.ok(m.gaveDiff < SAME, `y_gave differs by ${m.gaveDiff}`);
});

test('without positions the other outputs swap with their words (permutation equivariance)', () => {
  const m = susanMaryModel(attn);
  assert.ok(m.swapDiff < SAME, `largest difference ${m.swapDiff}`);
  // and the two names' outputs really differ, so the swap is a visible one
  const a = m.orders['susan-mary'];
  const out = (w) => Array.from(a.output.data.subarray(a.words.indexOf(w) * 8, a.words.indexOf(w) * 8 + 8));
  assert.ok(out('Susan').some((v, k) => Math.abs(v - out('Mary')[k]) > 0.01));
});

test('with sinusoidal positions y_gave differs between the sentences', () => {
  const m = susanMaryModel(attn, { positions: true });
  assert.ok(m.gaveDiff > 0.05, `y_gave differs by only ${m.gaveDiff}`);
  assert.ok(m.swapDiff > 0.05);
  assert.equal(m.orders['susan-mary'].words[GAVE], 'gave');
});

test('weights rows sum to 1 in every case', () => {
  for (const positions of [false, true]) {
    for (const o of Object.values(susanMaryModel(attn, { positions }).orders)) {
      for (let i = 0; i < 5; i++) {
        const sum = o.weights.data.subarray(i * 5, i * 5 + 5).reduce((x, y) => x + y, 0);
        assert.ok(Math.abs(sum - 1) < 1e-6);
      }
    }
  }
});
