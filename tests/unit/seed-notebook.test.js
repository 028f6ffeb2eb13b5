// seed-notebook.test.js: the example of the source notebook
// (shared/seeds/001_ab895bb7ebeb8173.txt) reproduced through the API:
//
//   np.random.seed(42)
//   X = np.random.rand(3, 4); W_Q = np.random.rand(4, 4); W_K = ...; W_V = ...
//   Q = X @ W_Q; K = X @ W_K; V = X @ W_V
//   output, attention_weights = scaled_dot_product_attention(Q, K, V)
//
// numpy's generator is tests/mt19937.js, so the inputs are the notebook's own.
// The notebook prints 8 decimals (so the printed numbers are within 5e-9 of
// its float64 values); the engine works in float32 (relative rounding 6e-8 on
// values of size ~1.5, through two products of 4 terms and a softmax of 3),
// so 1e-6 holds with a wide margin and checks every printed digit but the last two.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { assertClose, forEachBuild, ref } from './helpers.js';
import { RandomState } from './mt19937.js';

const PRINTED = {
  X: [
    [0.37454012, 0.95071431, 0.73199394, 0.59865848],
    [0.15601864, 0.15599452, 0.05808361, 0.86617615],
    [0.60111501, 0.70807258, 0.02058449, 0.96990985],
  ],
  weights: [
    [0.52735889, 0.11510842, 0.35753269],
    [0.43524369, 0.19971446, 0.36504185],
    [0.5060941, 0.12923692, 0.36466898],
  ],
  output: [
    [0.9770141, 0.93531103, 1.15681926, 1.43938704],
    [0.87857753, 0.86060494, 1.04849229, 1.32790919],
    [0.9564023, 0.92013827, 1.13535784, 1.41721063],
  ],
};

const TOL = 1e-6;
const SEED = 42;

function notebookInputs() {
  const rs = new RandomState(SEED);
  const X = rs.rand(3, 4);
  const W_Q = rs.rand(4, 4);
  const W_K = rs.rand(4, 4);
  const W_V = rs.rand(4, 4);
  return { X, W_Q, W_K, W_V };
}

const printed = (rows) => ref.asMatrix(rows);

describe('numpy MT19937 (seed 42)', () => {
  it('reproduces the notebook X = np.random.rand(3, 4) to its 8 printed decimals', () => {
    const { X } = notebookInputs();
    const want = printed(PRINTED.X).data;
    X.forEach((x, i) => assert.ok(Math.abs(x - want[i]) <= 5e-9, `X[${i}] = ${x}, printed ${want[i]} (seed ${SEED})`));
  });
  it('gives the first draws numpy gives', () => {
    // np.random.seed(42); np.random.rand(2): known values of numpy's legacy generator.
    const rs = new RandomState(SEED);
    assert.equal(rs.randomSample(), 0.3745401188473625);
    assert.equal(rs.randomSample(), 0.9507143064099162);
  });
});

forEachBuild('seed notebook example', (attn) => {
  const { X, W_Q, W_K, W_V } = notebookInputs();
  const Xm = attn.matrix(3, 4, X);
  const project = (W) => attn.matmul(Xm, attn.matrix(4, 4, W));

  it('X in float32 matches the printed X to 1e-6', () => {
    assertClose(Xm, printed(PRINTED.X), TOL, `X (seed ${SEED})`);
  });

  for (const weights of [true, false]) {
    it(`Q, K, V by attn.matmul, then attention (${weights ? 'with weights' : 'fused path'}) gives the printed numbers to 1e-6`, () => {
      const [Q, K, V] = [project(W_Q), project(W_K), project(W_V)];
      const r = attn.attention(Q, K, V, { weights });
      assertClose(r.output, printed(PRINTED.output), TOL, `output (seed ${SEED}, weights=${weights})`);
      if (weights) assertClose(r.weights, printed(PRINTED.weights), TOL, `weights (seed ${SEED})`);
      else assert.equal(r.weights, null);
    });
  }

  it('the float64 reference gives the printed numbers too (it is the same computation)', () => {
    const [Q, K, V] = [W_Q, W_K, W_V].map((W) => ref.matmul(ref.matrix(3, 4, X), ref.matrix(4, 4, W)));
    const r = ref.attention(Q, K, V);
    assertClose({ ...r.output, data: Float32Array.from(r.output.data) }, printed(PRINTED.output), 5e-9 + 1e-7, 'reference output');
    assertClose({ ...r.weights, data: Float32Array.from(r.weights.data) }, printed(PRINTED.weights), 5e-9 + 1e-7, 'reference weights');
  });
});
