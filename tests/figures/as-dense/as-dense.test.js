// attention-as-dense: the multi-head construction equals a direct dense layer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { engine } from '../../kit/engine.js';
import * as ref from '../../unit/reference.js';
import { colourMax, denseModel, denseLayer, N, M } from '../../../web/figures/as-dense/as-dense.model.js';
import { uniform } from '../../../web/kit/random.js';

const attn = await engine();

test('every output row equals x W + b of a direct dense layer', () => {
  const u = uniform(5);
  for (let seed = 1; seed <= 25; seed++) {
    const layer = denseLayer(seed);
    const x = Array.from({ length: N }, () => 4 * u() - 2);
    const m = denseModel(attn, x, layer);
    // float64 reference of the dense layer itself
    const want = ref.matmul([x], ref.asMatrix(layer.W)).data.map((v, c) => v + layer.b[c]);
    for (const y of [m.direct, ...Array.from({ length: N }, (_, i) => Array.from(m.Y.data.subarray(i * 2 * N, i * 2 * N + M)))]) {
      // sums of 4 products of size <= ~3 in float32, plus the bias: 1e-5 absolute
      y.forEach((v, c) => assert.ok(Math.abs(v - want[c]) < 1e-5, `seed ${seed}: y[${c}] = ${v}, want ${want[c]}`));
    }
    assert.ok(m.maxDiff < 1e-5, `seed ${seed}: attention vs direct ${m.maxDiff}`);
    for (let i = 0; i < N; i++) for (let c = M; c < 2 * N; c++) assert.equal(m.Y.data[i * 2 * N + c], 0);
  }
});

test('the attention is fixed and exactly one-hot: head i takes all of token i', () => {
  const m = denseModel(attn, [0.3, -1, 2, 0.5]);
  m.weights.forEach((W, hd) => {
    for (let q = 0; q < N; q++) for (let k = 0; k < N; k++) assert.equal(W.data[q * N + k], k === hd ? 1 : 0, `head ${hd} w[${q}][${k}]`);
  });
});

test('Z is the inputs interleaved with the tags: W^V = I passes x through unchanged', () => {
  const x = [1.5, -0.25, 0, 2];
  const m = denseModel(attn, x);
  for (let q = 0; q < N; q++) {
    x.forEach((v, i) => {
      assert.equal(m.Z.data[q * 2 * N + 2 * i], Math.fround(v));
      assert.equal(m.Z.data[q * 2 * N + 2 * i + 1], 1);
    });
  }
});

test('one colour scale: a multiple of 0.5 covering every number drawn, kept by most slider steps', () => {
  const layer = denseLayer(1);
  const u = uniform(9);
  let kept = 0;
  for (let k = 0; k < 200; k++) {
    const x = Array.from({ length: N }, () => Math.round(40 * u() - 20) / 10);
    const m = denseModel(attn, x, layer);
    const top = Math.max(...[x, layer.W.data, layer.b, m.direct, m.X.data, m.Z.data, m.Y.data].flatMap((a) => Array.from(a, Math.abs)));
    const max = colourMax(x, layer, m);
    assert.equal(max * 2, Math.round(max * 2), `${max} is not a multiple of 0.5`);
    assert.ok(max >= top && max < top + 0.5, `x ${x}: scale ${max} for numbers up to ${top}`);
    // the next step moves one slider by 0.1, as the sliders do
    const next = x.with(k % N, Math.max(-2, Math.min(2, x[k % N] + 0.1)));
    kept += colourMax(next, layer, denseModel(attn, next, layer)) === max;
  }
  assert.ok(kept > 120, `the scale stayed for ${kept} of 200 slider steps`);
});
