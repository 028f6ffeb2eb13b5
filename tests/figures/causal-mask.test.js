// attention-causal-mask: masked weights are exactly 0, rows still sum to 1.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { engine } from './engine.js';
import { causalModel, presetCells, parseCells, flip, PRESETS, N } from '../../web/figures/causal-mask.model.js';
import { uniform } from '../../web/figures/random.js';

const attn = await engine();

function checkMaskSemantics(m, label) {
  const t = m.tokens.length;
  for (let i = 0; i < t; i++) {
    for (let j = 0; j < t; j++) {
      const w = m.weights.data[i * t + j];
      if (m.blocked.data[i * t + j] === 1) assert.equal(w, 0, `${label}: blocked w[${i}][${j}] = ${w}`);
      else if (!m.emptyRows.includes(i)) assert.ok(w > 0, `${label}: open w[${i}][${j}] = ${w}`);
    }
    if (m.emptyRows.includes(i)) {
      assert.equal(m.rowSums[i], 0, `${label}: row ${i} has no key left`);
      for (let c = 0; c < m.output.cols; c++) assert.equal(m.output.data[i * m.output.cols + c], 0);
    } else {
      // at most 8 float32 weights, each rounded once: 1e-6 covers it
      assert.ok(Math.abs(m.rowSums[i] - 1) < 1e-6, `${label}: row ${i} sums to ${m.rowSums[i]}`);
    }
  }
}

test('every preset at every step: blocked weights are exactly 0 and rows sum to 1', () => {
  for (const preset of PRESETS.filter((p) => p !== 'custom')) {
    for (let step = 1; step <= N; step++) checkMaskSemantics(causalModel(attn, { cells: presetCells(preset), step }), `${preset} step ${step}`);
  }
});

test('random painted masks, including rows with nothing left', () => {
  const u = uniform(77);
  for (let trial = 0; trial < 40; trial++) {
    let cells = '';
    for (let k = 0; k < N * N; k++) cells += u() < 0.45 ? '1' : '0';
    if (trial % 5 === 0) cells = '1'.repeat(N) + cells.slice(N); // row 0 fully masked
    const m = causalModel(attn, { cells });
    if (trial % 5 === 0) assert.ok(m.emptyRows.includes(0));
    checkMaskSemantics(m, `trial ${trial}`);
  }
});

test('causal: earlier rows do not change as later tokens arrive', () => {
  const full = causalModel(attn, { cells: presetCells('causal') });
  for (let step = 1; step < N; step++) {
    const part = causalModel(attn, { cells: presetCells('causal'), step });
    for (let i = 0; i < step; i++) {
      for (let j = 0; j < step; j++) {
        assert.ok(Math.abs(part.weights.data[i * step + j] - full.weights.data[i * N + j]) < 1e-6);
      }
    }
  }
});

test('the painted causal mask matches the kernels\' own causal flag', () => {
  const m = causalModel(attn, { cells: presetCells('causal') });
  const Q = { rows: N, cols: 8, data: Float32Array.from({ length: N * 8 }, (_, k) => Math.sin(k)) };
  const a = attn.attention(Q, Q, Q, { mask: m.mask }).weights.data;
  const b = attn.attention(Q, Q, Q, { causal: true }).weights.data;
  // the two paths may round the exponentials' sum differently: a few ulps
  a.forEach((w, k) => (b[k] === 0 ? assert.equal(w, 0) : assert.ok(Math.abs(w - b[k]) < 1e-6, `w[${k}]`)));
});

test('cells: parse, flip and presets', () => {
  assert.equal(parseCells('junk'), presetCells('causal'));
  const c = presetCells('none');
  assert.equal(flip(flip(c, 2, 3), 2, 3), c);
  assert.equal(flip(c, 2, 3)[2 * N + 3], '1');
  assert.ok(presetCells('padding').split('').every((b, k) => (b === '1') === (k % N === N - 1)));
});
