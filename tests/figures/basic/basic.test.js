// attention-basic: softmax(X X^T) with no parameters.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { engine } from '../../kit/engine.js';
import * as ref from '../../unit/reference.js';
import { translator } from '../../../web/kit/i18n.js';
import { tablesOf } from '../../kit/tables.js';
import { basicModel, parseInputs, formatInputs, largestWeight, DEFAULT_X } from '../../../web/figures/basic/basic.model.js';

const strings = await tablesOf('basic');

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
  const say = (lang) => translator(strings[lang], lang)('largestTie', { names: ['red', 'orange', 'blue', 'teal'], share: '25%' });
  assert.equal(say('en'), 'no single largest weight: red, orange, blue and teal share it, 25% each');
  assert.equal(say('zh'), '没有唯一的最大权重：red、orange、blue和teal并列，各占 25%');
});

// A page's own tokens and vectors (issue 14, part 3).
import { parseExample, normalizeInputs } from '../../../web/figures/basic/basic.model.js';
import { refusedBy } from '../../kit/refused.js';

const MINE = { tokens: ['cat', 'dog', 'car', 'bus', 'kite', 'sun'], vectors: [[0.9, 0.1, -0.2], [0.8, 0.3, -0.1], [-0.5, 0.9, 0.2], [-0.6, 0.8, 0.4], [0, -0.9, 1], [1, 1, -1]] };

test('parseExample: a page\'s 2 to 8 tokens and their vectors are what the kernels weigh', () => {
  const { names, rows } = parseExample(structuredClone(MINE));
  assert.deepEqual(names, MINE.tokens);
  const m = basicModel(attn, rows);
  const want = ref.attention(rows, rows, rows, { scale: 1 });
  want.weights.data.forEach((w, k) => assert.ok(Math.abs(m.weights.data[k] - w) < 1e-6, `w[${k}]`));
  assert.deepEqual([m.weights.rows, m.weights.cols], [6, 6]);
  // the attribute that holds the reader's edits keeps six rows, and reads back only against six
  const text = normalizeInputs(formatInputs(rows));
  assert.deepEqual(parseInputs(text, rows), rows);
  assert.deepEqual(parseInputs(text), DEFAULT_X, 'six rows are not the four pixels');
});

test('parseExample: each kind of bad example is refused with a message of the table', () => {
  const refused = refusedBy(parseExample, strings);
  refused(undefined, 'exampleNotObject', { fields: 'tokens, vectors' });
  refused({ tokens: ['a'], vectors: [[0, 0, 0]] }, 'exampleList', { field: 'tokens', min: 2, max: 8, got: 1 });
  refused({ tokens: 'abc', vectors: [] }, 'exampleList', { field: 'tokens', min: 2, max: 8, got: 0 });
  refused({ tokens: ['a', 'b'], vectors: [[0, 0, 0]] }, 'exampleCount', { field: 'vectors', want: 2, like: 'tokens', got: 1 });
  refused({ tokens: ['a', 'b'], vectors: [[0, 0, 0], [0, 0]] }, 'exampleNumbers', { where: 'vectors[1]', want: 3, lo: -1, hi: 1 });
  refused({ tokens: ['a', 'b'], vectors: [[0, 0, 0], [0, 0, 1.5]] }, 'exampleNumbers', { where: 'vectors[1]', want: 3, lo: -1, hi: 1 });
  refused({ tokens: ['a', 'b'], vectors: [[0, 0, 0], [0, NaN, 0]] }, 'exampleNumbers');
  refused({ tokens: ['a', '  '], vectors: [[0, 0, 0], [0, 0, 0]] }, 'exampleLabel', { where: 'tokens[1]', max: 10, half: 5 });
  refused({ tokens: ['a', '<img src=x onerror=alert(1)>'], vectors: [[0, 0, 0], [0, 0, 0]] }, 'exampleLabel', { where: 'tokens[1]', max: 10, half: 5 });
  refused({ tokens: ['a', 'a'], vectors: [[0, 0, 0], [0, 0, 0]] }, 'exampleRepeat', { where: 'tokens[1]' });
  refused({ tokens: ['a', '\u6ce8\u610f\u529b\u673a\u5236\u6ce8'], vectors: [[0, 0, 0], [0, 0, 0]] }, 'exampleLabel', { where: 'tokens[1]', max: 10, half: 5 });
  assert.deepEqual(parseExample({ tokens: ['\u6ce8\u610f\u529b\u673a\u5236', 'x'.repeat(10)], vectors: [[0, 0, 0], [0, 0, 0]] }).names.length, 2, 'ten letters or five Chinese characters');
  assert.equal(translator(strings.en, 'en')('exampleRepeat', { where: 'tokens[1]' }), 'tokens[1] repeats an earlier one');
});
