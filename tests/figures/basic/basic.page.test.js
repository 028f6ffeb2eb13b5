// attention-basic in headless Chromium, on a page of its own with the page's
// own example (a data-example child, issue 14, part 3): it draws the page's
// tokens and the kernels' weights for them (checked against the float64
// reference here), fits 360 px with eight long ones, says what is wrong
// with a bad example above its own (in the reader's language), and keeps
// hostile labels as text. Screenshots: tests/artifacts/screenshots/example-attention-basic-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start } from '../../browser/harness.js';
import { openExample, addExample, exampleView, expectExampleFits360, LONG_TOKENS, HOSTILE } from '../../browser/examples.js';
import * as ref from '../../unit/reference.js';
import { num, roundShares, pcts } from '../../../web/kit/format.js';

const TAG = 'attention-basic';

let server;
before(async () => { server = await start(); });
after(async () => { await server?.close(); });

test('attention-basic draws the page\'s tokens and the kernels\' weights for them; a bad example is said and the pixels stay', async () => {
  const tokens = ['cat', 'dog', 'car', 'bus', 'kite', HOSTILE, 'sun', 'moon'];
  const vectors = [[0.9, 0.1, -0.2], [0.8, 0.3, -0.1], [-0.5, 0.9, 0.2], [-0.6, 0.8, 0.4], [0, -0.9, 1], [1, 1, -1], [0.2, 0.2, 0.2], [-1, -1, -1]];
  const { page, problems, context } = await openExample(server, TAG, { tokens, vectors });
  let seen = await exampleView(page);
  assert.deepEqual(seen.errors, []);
  assert.equal(seen.title, 'Attention with no parameters: 8 tokens weigh each other');
  assert.deepEqual(seen.options, tokens);
  assert.equal(seen.markup, 0, 'a label that looks like markup stays text');
  const [X, W] = seen.mats;
  assert.deepEqual(X.labels.slice(0, 8), tokens);
  const want = ref.attention(vectors, vectors, vectors, { scale: 1 }).weights;
  const printed = Array.from({ length: 8 }, (_, i) => roundShares(want.data.slice(i * 8, (i + 1) * 8), 2).map((v) => num(v))).flat();
  assert.deepEqual(W.values, printed, 'W holds softmax(X X^T) of the page\'s vectors');
  // the default choice is the second input, as orange is of the four pixels
  assert.match(seen.summary, /^The output of dog takes /);
  await page.locator('#mine').getByRole('radio', { name: 'kite' }).click();
  seen = await exampleView(page);
  const kite = pcts(want.data.slice(4 * 8, 5 * 8));
  assert.ok(seen.summary.startsWith(`The output of kite takes ${kite[0]} from cat, ${kite[1]} from dog`), seen.summary);
  assert.equal(await page.locator('#mine').evaluate((e) => e.shadowRoot.querySelector('.tools button[hidden]') !== null), true, 'no link: it could not name the page\'s tokens');

  await addExample(page, TAG, { tokens: ['a', 'b'], vectors: [[0, 0, 0], [0, 2, 0]] });
  seen = await exampleView(page);
  assert.deepEqual(seen.errors, ['The example on this page could not be used (vectors[1] must be 3 numbers from -1 to 1); the figure shows its own.']);
  assert.equal(seen.title, 'Attention with no parameters: four pixels weigh each other');
  assert.deepEqual(seen.options, ['red', 'orange', 'blue', 'teal']);

  await addExample(page, TAG, { tokens: ['ok', '<img src=x onerror="window.pwned=1">'], vectors: [[0, 0, 0], [0, 1, 0]] }, { lang: 'zh-CN' });
  seen = await exampleView(page);
  assert.deepEqual(seen.errors, ['本页提供的示例无法使用（tokens[1] 必须是 1 到 10 个字母（或最多 5 个汉字）的文字），图表显示的是它自带的示例。']);
  assert.equal(await page.evaluate(() => window.pwned), undefined);

  await addExample(page, TAG, '{"tokens": [');
  assert.match((await exampleView(page)).errors[0], /^The example on this page could not be used \(it is not valid JSON: /);
  assert.deepEqual(problems, []);
  await context.close();
});

test('with eight long tokens it fits 360 px, light and dark, and no text overlaps', () => expectExampleFits360(server, TAG,
  { tokens: LONG_TOKENS, vectors: LONG_TOKENS.map((_, i) => [Math.cos(i), Math.sin(i), (i % 3) - 1]) }));
