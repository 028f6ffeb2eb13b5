// attention-as-conv: k heads with relative-offset attention equal a 1-D
// convolution at the hard limit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { engine } from '../../kit/engine.js';
import { convModel, construction } from '../../../web/figures/as-conv/as-conv.model.js';
import { normal } from '../../../web/kit/random.js';

const attn = await engine();

function example(seed, N, C, k, O) {
  const g = normal(seed);
  const x = Array.from({ length: N }, () => Array.from({ length: C }, g));
  const K = Array.from({ length: k }, () => Array.from({ length: C }, () => Array.from({ length: O }, g)));
  return { x, K, b: Array.from({ length: O }, g) };
}

// float64 convolution written as the definition
function conv(x, K, b) {
  const pad = (K.length - 1) / 2;
  return x.map((_, i) => b.map((bo, o) => K.reduce((s, tap, r) => {
    const src = i + r - pad;
    return src < 0 || src >= x.length ? s : s + tap.reduce((t, kc, c) => t + x[src][c] * kc[o], 0);
  }, bo)));
}

test('at the hard limit the attention layer equals a direct 1-D convolution', () => {
  for (const [N, C, k, O] of [[8, 1, 3, 1], [8, 1, 5, 1], [7, 2, 3, 3], [12, 3, 5, 2], [5, 1, 1, 1]]) {
    for (let seed = 1; seed <= 4; seed++) {
      const ex = example(seed * 100 + N, N, C, k, O);
      const m = convModel(attn, { ...ex, temperature: 0.001 });
      const want = conv(ex.x, ex.K, ex.b);
      // sums of k*C + 1 float32 terms of size ~1-3: 1e-5 absolute
      m.Y.forEach((y, i) => y.forEach((v, o) => assert.ok(Math.abs(v - want[i][o]) < 1e-5, `N${N} C${C} k${k}: y[${i}][${o}] ${v} vs ${want[i][o]}`)));
      m.direct.forEach((y, i) => y.forEach((v, o) => assert.ok(Math.abs(v - want[i][o]) < 1e-5)));
      assert.ok(m.maxDiff < 1e-5);
    }
  }
});

test('at the hard limit head r attends only to offset r - pad, exactly', () => {
  const m = convModel(attn, { ...example(3, 8, 1, 3, 1), temperature: 0.001 });
  m.weights.forEach((W, r) => {
    for (let i = 0; i < m.N; i++) for (let p = 0; p < m.P; p++) assert.equal(W.data[i * m.P + p], p === i + r ? 1 : 0);
  });
});

test('soft attention blurs; the error shrinks as the temperature falls, weights sum to 1', () => {
  const ex = example(9, 8, 1, 3, 1);
  let last = Infinity;
  for (const temperature of [3, 1, 0.3, 0.1, 0.03, 0.001]) {
    const m = convModel(attn, { ...ex, temperature });
    assert.ok(m.maxDiff <= last + 1e-7, `T=${temperature}: ${m.maxDiff} after ${last}`);
    last = m.maxDiff;
    for (const W of m.weights) for (let i = 0; i < m.N; i++) {
      assert.ok(Math.abs(W.data.subarray(i * m.P, (i + 1) * m.P).reduce((a, b) => a + b, 0) - 1) < 1e-5);
    }
  }
  assert.ok(convModel(attn, { ...ex, temperature: 1 }).maxDiff > 0.1, 'soft attention is not the convolution');
});

test('shapes: k heads, each C + P wide', () => {
  const c = construction([[1], [2], [3]], [[[1]], [[1]], [[1]]], [0], 1);
  assert.equal(c.params.heads, 3);
  assert.equal(c.Xkv.rows, 5);
  assert.equal(c.params.Wq.rows, 3 * (1 + 5));
});
