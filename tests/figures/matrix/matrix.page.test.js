// attention-matrix in headless Chromium, on a page of its own with the
// page's own example (a data-example child, issue 14, part 3): it steps
// through the page's tokens and vectors with the kernels' numbers (checked
// against the float64 reference here), fits 360 px with eight long tokens,
// and says what is wrong with a bad example above its own. Screenshots:
// tests/artifacts/screenshots/example-attention-matrix-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start } from '../../browser/harness.js';
import { openExample, addExample, exampleView, expectExampleFits360, LONG_TOKENS } from '../../browser/examples.js';
import * as ref from '../../unit/reference.js';
import { num, roundShares } from '../../../web/kit/format.js';

const TAG = 'attention-matrix';

let server;
before(async () => { server = await start(); });
after(async () => { await server?.close(); });

test('attention-matrix steps through the page\'s tokens and vectors (d = 2) with the kernels\' numbers', async () => {
  const tokens = ['the', 'cat', 'sat', 'on', 'the', 'mat'];
  const vectors = [[0.1, -0.5], [0.9, 0.2], [-0.3, 1], [0, 0], [0.1, -0.5], [1, -1]];
  const { page, problems, context } = await openExample(server, TAG, { tokens, vectors }, { attrs: { step: '5' } });
  const seen = await exampleView(page);
  assert.deepEqual(seen.errors, []);
  const P = seen.mats[6];
  const Q = ref.matmul(ref.asMatrix(vectors), ref.asMatrix([[1.5, 0], [0, 1.5]]));
  const want = ref.softmax(ref.scores(Q, Q, { scale: 1 / Math.sqrt(2) }));
  const printed = Array.from({ length: 6 }, (_, i) => roundShares(want.data.slice(i * 6, (i + 1) * 6), 2).map((v) => num(v))).flat();
  assert.deepEqual(P.values, printed, 'P = softmax(QK^T / sqrt(2)) of the page\'s vectors');
  assert.equal(P.hidden, false, 'step 5 shows P');
  assert.match(seen.summary, /^Step 5: softmax per row\./);
  // (a matrix is painted once a step shows it: X, at step 1)
  await page.evaluate(() => { document.querySelector('#mine').step = 1; });
  const [X] = (await exampleView(page)).mats;
  assert.equal(X.hidden, false, 'step 1 shows X');
  assert.deepEqual(X.labels, [...tokens, '1', '2'], 'tokens label the rows, feature numbers the columns');
  assert.deepEqual(X.values, vectors.flat().map((v) => num(v)));
  await addExample(page, TAG, { tokens: ['a', 'b'], vectors: [[0, 0], [0, 0, 0]] });
  const bad = await exampleView(page);
  assert.deepEqual(bad.errors, ['The example on this page could not be used (vectors[1] must be 2 numbers from -1 to 1); the figure shows its own.']);
  assert.deepEqual(bad.mats[3].labels, ['sky', 'sun', 'grass', 'roof', 'r', 'g', 'b'], 'V (step 6) in its own pixels');
  assert.deepEqual(problems, []);
  await context.close();
});

test('with eight long tokens it fits 360 px, light and dark, and no text overlaps', () => expectExampleFits360(server, TAG,
  // the matrix takes labels of at most eight letters (or four Chinese characters)
  { tokens: [...LONG_TOKENS.slice(0, 6), 'etaetaet', '\u6ce8\u610f\u529b\u673a'], vectors: LONG_TOKENS.map((_, i) => [Math.cos(i), Math.sin(i), -1, 1, 0.5, -0.25]) }));
