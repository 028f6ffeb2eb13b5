// Claims of attention-matrix (DESIGN.md): each step equals the kernels'
// intermediate; the pixel example is N = pixels, d = 3.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { engine } from './engine.js';
import { steps, smallX, pictureAttention, picture, SIDE, WQ, WK, WV, D } from '../../web/figures/matrix.model.js';

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
