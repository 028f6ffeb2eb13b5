// Claims of attention-matrix (DESIGN.md): each step equals the kernels'
// intermediate; the pixel example is N = pixels, d = 3.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { engine } from '../../kit/engine.js';
import { steps, smallX, pictureAttention, picture, SIDE, WQ, WK, WV, D } from '../../../web/figures/matrix/matrix.model.js';

const attn = await engine();
const maxDiff = (a, b) => a.data.reduce((m, v, i) => Math.max(m, Math.abs(v - b.data[i])), 0);

test('the step-through ends where the fused attention kernel ends', () => {
  for (const X of [smallX(), pictureAttention(attn).X]) {
    const st = steps(attn, X);
    const Q = attn.matmul(X, WQ);
    const K = attn.matmul(X, WK);
    const V = attn.matmul(X, WV);
    const ref = attn.attention(Q, K, V); // scale 1/sqrt(d_k) by default
    // float32, scores up to ~7: softmax differs from the fused path by rounding only
    assert.ok(maxDiff(st.P, ref.weights) < 1e-5, `softmax step vs kernel weights: ${maxDiff(st.P, ref.weights)}`);
    assert.ok(maxDiff(st.Y, ref.output) < 1e-5, `xV step vs kernel output: ${maxDiff(st.Y, ref.output)}`);
  }
});

test('each intermediate has the shape the figure labels and matches a float64 check', () => {
  const st = steps(attn, smallX());
  const N = 4;
  assert.deepEqual([st.Q.rows, st.Q.cols, st.S.rows, st.S.cols, st.P.rows, st.Y.cols], [N, D, N, N, N, D]);
  for (let i = 0; i < N; i++) {
    let sum = 0;
    for (let j = 0; j < N; j++) {
      let s = 0;
      for (let f = 0; f < D; f++) s += st.Q.data[i * D + f] * st.K.data[j * D + f];
      assert.ok(Math.abs(st.S.data[i * N + j] - s) < 1e-5);
      assert.ok(Math.abs(st.scaled.data[i * N + j] - s / Math.sqrt(D)) < 1e-5);
      sum += st.P.data[i * N + j];
    }
    assert.ok(Math.abs(sum - 1) < 1e-6, 'softmax rows sum to 1');
  }
});

test('the picture is a set of N = pixels vectors with d = 3 features', () => {
  const { X, weights } = pictureAttention(attn);
  assert.equal(picture().length, SIDE * SIDE);
  assert.deepEqual([X.rows, X.cols], [SIDE * SIDE, 3]);
  assert.deepEqual([weights.rows, weights.cols], [SIDE * SIDE, SIDE * SIDE]);
});

// A page's own tokens and vectors (issue 14, part 3).
import { parseExample, projections, STEPS } from '../../../web/figures/matrix/matrix.model.js';
import { refusedBy } from '../../kit/refused.js';
import { translator } from '../../../web/kit/i18n.js';
import { tablesOf } from '../../kit/tables.js';

const strings = await tablesOf('matrix');

const MINE = { tokens: ['the', 'cat', 'sat', 'on', 'the', 'mat'], vectors: [[0.1, -0.5], [0.9, 0.2], [-0.3, 1], [0, 0], [0.1, -0.5], [1, -1]] };

test('parseExample: a page\'s N tokens and N x d vectors go through every step, with the scale 1/sqrt(d)', () => {
  const { names, X } = parseExample(structuredClone(MINE));
  assert.deepEqual(names, MINE.tokens, 'repeated tokens are allowed');
  assert.deepEqual([X.rows, X.cols], [6, 2]);
  const st = steps(attn, X);
  assert.deepEqual([st.Q.rows, st.Q.cols, st.S.rows, st.S.cols, st.Y.rows, st.Y.cols], [6, 2, 6, 6, 6, 2]);
  const W = projections(2);
  assert.deepEqual(Array.from(W.WQ.data), [1.5, 0, 0, 1.5]);
  const ref = attn.attention(attn.matmul(X, W.WQ), attn.matmul(X, W.WK), X); // scale 1/sqrt(2) by default
  assert.ok(maxDiff(st.P, ref.weights) < 1e-5, 'softmax step vs the fused kernel with scale 1/sqrt(2)');
  assert.ok(maxDiff(st.Y, ref.output) < 1e-5);
  assert.ok(Math.abs(st.scaled.data[1] - st.S.data[1] / Math.sqrt(2)) < 1e-6);
  assert.deepEqual(parseExample({ tokens: ['a', 'b'], vectors: [[1], [-1]] }).X.cols, 1, 'd = 1 is allowed');
});

test('parseExample: each kind of bad example is refused with a message of the table', () => {
  const refused = refusedBy(parseExample, strings);
  refused('tokens', 'exampleNotObject', { fields: 'tokens, vectors' });
  refused({ tokens: ['a'], vectors: [[1]] }, 'exampleList', { field: 'tokens', min: 2, max: 8, got: 1 });
  refused({ tokens: Array(9).fill('a'), vectors: Array(9).fill([1]) }, 'exampleList', { field: 'tokens', min: 2, max: 8, got: 9 });
  refused({ tokens: ['a', 'b'], vectors: [[1]] }, 'exampleCount', { field: 'vectors', want: 2, like: 'tokens', got: 1 });
  refused({ tokens: ['a', 'b'], vectors: [[], []] }, 'exampleList', { field: 'vectors[0]', min: 1, max: 6, got: 0 });
  refused({ tokens: ['a', 'b'], vectors: [Array(7).fill(0), Array(7).fill(0)] }, 'exampleList', { field: 'vectors[0]', min: 1, max: 6, got: 7 });
  refused({ tokens: ['a', 'b'], vectors: [[1, 0], [1]] }, 'exampleNumbers', { where: 'vectors[1]', want: 2, lo: -1, hi: 1 });
  refused({ tokens: ['a', 'b'], vectors: [[1, 0], [1, 2]] }, 'exampleNumbers', { where: 'vectors[1]', want: 2, lo: -1, hi: 1 });
  refused({ tokens: ['a', 'b'], vectors: [[1, 0], [1, 'x']] }, 'exampleNumbers');
  refused({ tokens: ['a', ''], vectors: [[1], [0]] }, 'exampleLabel', { where: 'tokens[1]', max: 8, half: 4 });
  refused({ tokens: ['a', 'x'.repeat(9)], vectors: [[1], [0]] }, 'exampleLabel', { where: 'tokens[1]', max: 8, half: 4 });
  refused({ tokens: ['a', '\u6ce8\u610f\u529b\u673a\u5236'], vectors: [[1], [0]] }, 'exampleLabel', { where: 'tokens[1]', max: 8, half: 4 });
  assert.deepEqual(parseExample({ tokens: ['x'.repeat(8), '\u6ce8\u610f\u529b\u673a'], vectors: [[1], [0]] }).names.length, 2, 'eight letters or four Chinese characters');
});

test('the stepper\'s steps are words of the table', () => {
  const t = translator(strings.zh, 'zh');
  assert.deepEqual(STEPS.map((k) => t(k)), ['X', 'Q, K, V', 'QK\u1d40', '乘以 1/\u221ad 缩放', '逐行 softmax', '乘以 V']);
});
