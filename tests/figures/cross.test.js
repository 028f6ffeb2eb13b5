// attention-cross: decoder queries over encoder keys; rows sum to 1 and the
// reordered words align.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { engine } from './engine.js';
import { crossModel, PAIRS } from '../../web/figures/cross.model.js';

const attn = await engine();

test('every decoder word attends most to the source word it translates, reordering included', () => {
  for (const pair of Object.keys(PAIRS)) {
    for (const temperature of [0.05, 0.1, 0.3]) {
      const m = crossModel(attn, { pair, temperature });
      assert.deepEqual(m.argmax, m.align, `${pair} T=${temperature}`);
    }
  }
});

test('the example pairs really reorder: some alignment lines cross', () => {
  for (const [name, p] of Object.entries(PAIRS)) {
    const crosses = p.align.some((a, i) => p.align.some((b, j) => j > i && b < a));
    assert.ok(crosses, name);
  }
});

test('rows sum to 1; shapes are target x source', () => {
  for (const pair of Object.keys(PAIRS)) {
    const m = crossModel(attn, { pair, temperature: 1 });
    assert.equal(m.weights.rows, m.target.length);
    assert.equal(m.weights.cols, m.source.length);
    for (let i = 0; i < m.target.length; i++) {
      const sum = m.focus(i).reduce((a, b) => a + b, 0);
      assert.ok(Math.abs(sum - 1) < 1e-5, `${pair} row ${i}: ${sum}`);
    }
  }
});
