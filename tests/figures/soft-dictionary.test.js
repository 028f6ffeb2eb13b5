// Claims of attention-soft-dictionary (DESIGN.md), checked on the figure's model.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { engine } from './engine.js';
import { softLookup, nearest, hardDictionary, keyString, ENTRIES } from '../../web/figures/soft-dictionary.model.js';

const attn = await engine();
// A fixed grid of queries over the plane, including every key exactly.
const QUERIES = [...ENTRIES.map((e) => e.at)];
for (let x = -1; x <= 1.001; x += 0.25) for (let y = -1; y <= 1.001; y += 0.25) QUERIES.push([x, y]);
const close = (a, b, tol, what) => a.forEach((v, i) => assert.ok(Math.abs(v - b[i]) <= tol, `${what}: ${a} vs ${b}`));

test('as the temperature goes to 0 the result is the value of the best-matching key (a hard dictionary)', () => {
  for (const q of QUERIES) {
    // ties (a query exactly between two keys) are not a hard dictionary's case
    const d = ENTRIES.map(({ at }) => (at[0] - q[0]) ** 2 + (at[1] - q[1]) ** 2).sort((a, b) => a - b);
    if (d[1] - d[0] < 1e-3) continue;
    const { result, best } = softLookup(attn, q, 1e-4);
    assert.equal(best, nearest(q));
    close(result, ENTRIES[nearest(q)].value, 1e-6, `query ${q}`); // exp(-1e-3/1e-4) < 5e-5 of any other key
  }
});

test('at a key itself, the cold soft lookup returns exactly what the Map returns', () => {
  const map = hardDictionary();
  for (const e of ENTRIES) {
    assert.deepEqual(map.get(keyString(e.at)), e.value);
    close(softLookup(attn, e.at, 1e-4).result, map.get(keyString(e.at)), 1e-6, e.name);
  }
  assert.equal(map.get(keyString([0.3, 0.3])), undefined, 'the Map knows only exact keys');
});

test('as the temperature goes to infinity the result is the mean of all values', () => {
  const mean = [0, 1, 2].map((c) => ENTRIES.reduce((s, e) => s + e.value[c], 0) / ENTRIES.length);
  for (const q of QUERIES) {
    // scores differ by at most ~8, so at T = 1e6 weights are 1/n within 1e-5
    close(softLookup(attn, q, 1e6).result, mean, 1e-5, `query ${q}`);
  }
});

test('the weights always sum to 1 and are never negative', () => {
  for (const T of [1e-4, 0.01, 0.1, 0.5, 1, 10, 1000, 1e6]) {
    for (const q of QUERIES) {
      const { weights } = softLookup(attn, q, T);
      assert.ok(weights.every((w) => w >= 0));
      const sum = weights.reduce((a, b) => a + b, 0);
      assert.ok(Math.abs(sum - 1) < 1e-5, `T=${T} q=${q}: sum ${sum}`);
    }
  }
});

test('the result is the weighted sum of the values', () => {
  const { weights, result } = softLookup(attn, [0.2, -0.1], 0.3);
  const expected = [0, 1, 2].map((c) => ENTRIES.reduce((s, e, i) => s + weights[i] * e.value[c], 0));
  close(result, expected, 1e-6, 'mixture');
});

test('the words under the lookup: at a very high temperature no key is named the winner', async () => {
  const { largestShare } = await import('../../web/figures/soft-dictionary.model.js');
  const hot = softLookup(attn, [0.3, 0.2], 1000).weights;
  assert.equal(largestShare(Array.from(hot)), 'no key stands out: 20% each');
  const cold = softLookup(attn, ENTRIES[0].at, 0.05).weights;
  assert.match(largestShare(Array.from(cold)), /^largest weight: cherry, \d+%$/);
});
