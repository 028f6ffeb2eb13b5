// attention-basic: softmax(X X^T) with no parameters.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { engine } from './engine.js';
import * as ref from '../reference.js';
import { translator } from '../../web/figures/i18n.js';
import strings from '../../web/figures/basic.strings.js';
import { basicModel, parseInputs, formatInputs, largestWeight, DEFAULT_X } from '../../web/figures/basic.model.js';

const attn = await engine();

test('weights are softmax(X X^T) and every row sums to 1', () => {
  const m = basicModel(attn);
  const want = ref.attention(DEFAULT_X, DEFAULT_X, DEFAULT_X, { scale: 1 });
  // entries of order 1, float32 exp and sums over 4 terms: 1e-6 is ~10 ulps
  want.weights.data.forEach((w, k) => assert.ok(Math.abs(m.weights.data[k] - w) < 1e-6, `w[${k}]`));
  want.output.data.forEach((y, k) => assert.ok(Math.abs(m.output.data[k] - y) < 1e-6, `y[${k}]`));
  m.rowSums.forEach((s, j) => assert.ok(Math.abs(s - 1) < 1e-6, `row ${j} sums to ${s}`));
});

test('with the default pixels each output is dominated by its own input', () => {
  const m = basicModel(attn);
  assert.deepEqual(m.dominant, [0, 1, 2, 3]);
});

test('rows sum to 1 for any inputs the reader can set', () => {
  for (const X of [[[1, 1, 1], [1, 1, 1], [1, 1, 1], [1, 1, 1]], [[-1, 1, -1], [1, -1, 1], [0, 0, 0], [0.5, 0.5, -1]]]) {
    basicModel(attn, X).rowSums.forEach((s) => assert.ok(Math.abs(s - 1) < 1e-6));
  }
});

test('the x attribute round-trips and bad text falls back to the default', () => {
  const rows = [[0.1, -0.2, 0.3], [1, -1, 0], [0, 0, 0], [-0.5, 0.25, 1]];
  assert.deepEqual(parseInputs(formatInputs(rows)), rows);
  for (const bad of ['', 'x', '1,2,3', '0,0,0;0,0,0;0,0,0;0,0', '9,0,0;0,0,0;0,0,0;0,0,0']) {
    assert.deepEqual(parseInputs(bad), DEFAULT_X);
  }
});

test('the article\'s "usually, not always": orange at (0.3, 0, 0) puts more weight on red than on itself; a tie names no winner', () => {
  const X = DEFAULT_X.map((r) => r.slice());
  X[1] = [0.3, 0, 0];
  const m = basicModel(attn, X);
  assert.equal(m.dominant[1], 0, 'orange\'s largest weight is on red');
  assert.deepEqual(largestWeight(Array.from(m.weights.data.slice(4, 8)), 1), { key: 'largestOther', winner: 0, pixel: 1 });
  const zero = DEFAULT_X.map((r) => r.slice());
  zero[0] = [0, 0, 0];
  const w = Array.from(basicModel(attn, zero).weights.data.slice(0, 4));
  assert.deepEqual(largestWeight(w, 0), { key: 'largestTie', tied: [0, 1, 2, 3], share: '25%' });
  const say = (lang) => translator(strings, lang)('largestTie', { names: ['red', 'orange', 'blue', 'teal'], share: '25%' });
  assert.equal(say('en'), 'no single largest weight: red, orange, blue and teal share it, 25% each');
  assert.equal(say('zh'), '没有唯一的最大权重：red、orange、blue和teal并列，各占 25%');
});
