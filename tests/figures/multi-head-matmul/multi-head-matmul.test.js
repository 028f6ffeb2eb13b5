// Claim of attention-multi-head-matmul (DESIGN.md): the stacked computation
// equals h separate heads, then concat, then W^O.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { engine } from '../../kit/engine.js';
import { multiHeadMatmul, HEAD_COUNTS, N, D_MODEL } from '../../../web/figures/multi-head-matmul/multi-head-matmul.model.js';

const attn = await engine();

test('stacked multi-head attention = separate heads, concatenated, times W^O', () => {
  for (const heads of HEAD_COUNTS) {
    const m = multiHeadMatmul(attn, heads);
    // float32 with values ~1 through three products and a softmax: 1e-5 is ~100 ulps
    assert.ok(m.difference < 1e-5, `h=${heads}: ${m.difference}`);
    m.perHead.forEach((hd, i) => {
      assert.deepEqual([hd.Z.rows, hd.Z.cols], [N, D_MODEL / heads]);
      // the kernel's per-head Z and weights are the separate head's
      hd.Z.data.forEach((v, k) => assert.ok(Math.abs(v - m.stacked.heads[i].data[k]) < 1e-5));
      hd.weights.data.forEach((v, k) => assert.ok(Math.abs(v - m.stacked.weights[i].data[k]) < 1e-5));
    });
  }
});

test('the wide projection holds every head side by side: Q_i is a column slice of Q', () => {
  const m = multiHeadMatmul(attn, 2);
  m.perHead.forEach((hd, i) => {
    for (let r = 0; r < N; r++) for (let c = 0; c < m.dh; c++) {
      assert.ok(Math.abs(hd.Q.data[r * m.dh + c] - m.Q.data[r * D_MODEL + i * m.dh + c]) < 1e-6);
    }
  });
});
