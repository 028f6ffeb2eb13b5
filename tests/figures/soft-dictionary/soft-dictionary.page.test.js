// attention-soft-dictionary in headless Chromium, on a page of its own
// with the page's own example (a data-example child, issue 14, part 3): it
// looks up the page's keys and values under its labels (the weights checked
// here), fits 360 px with eight long labels, says what is wrong with a bad
// example above its own, and keeps hostile labels as text. Screenshots:
// tests/artifacts/screenshots/example-attention-soft-dictionary-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start } from '../../browser/harness.js';
import { openExample, addExample, exampleView, expectExampleFits360, LONG_TOKENS, HOSTILE } from '../../browser/examples.js';
import { pcts } from '../../../web/kit/format.js';

const TAG = 'attention-soft-dictionary';

let server;
before(async () => { server = await start(); });
after(async () => { await server?.close(); });

test('attention-soft-dictionary looks up the page\'s keys and values under its labels', async () => {
  const labels = ['rouge', 'vert', HOSTILE];
  const keys = [[-0.5, 0.5], [0.5, 0.5], [0, -0.5]];
  const { page, problems, context } = await openExample(server, TAG, { keys, values: [[1, 0, 0], [0, 1, 0], [0, 0, 1]], labels }, { attrs: { query: '0.2,0.1', temperature: '0.5' } });
  const seen = await exampleView(page);
  assert.deepEqual(seen.errors, []);
  assert.deepEqual(seen.planeLabels, labels);
  assert.equal(seen.markup, 0);
  const scores = keys.map(([x, y]) => -((x - 0.2) ** 2 + (y - 0.1) ** 2) / 0.5);
  const top = Math.max(...scores);
  const e = scores.map((s) => Math.exp(s - top));
  const w = e.map((v) => v / e.reduce((a, b) => a + b, 0));
  assert.deepEqual(seen.rows.map((r) => [r[0], r[2]]), labels.map((l, i) => [l, pcts(w)[i]]));
  assert.match(seen.summary, /^Query at 0\.20, 0\.10, temperature 0\.500: weights rouge /);
  await addExample(page, TAG, { keys, values: [[1, 0, 0], [0, 1, 0]], labels });
  const bad = await exampleView(page);
  assert.deepEqual(bad.errors, ['The example on this page could not be used ("values" must have 3 entries, as many as "keys", it has 2); the figure shows its own.']);
  assert.deepEqual(bad.planeLabels, ['cherry', 'lemon', 'sea', 'moss', 'plum']);
  assert.deepEqual(problems, []);
  await context.close();
});

test('with eight long tokens it fits 360 px, light and dark, and no text overlaps', () => expectExampleFits360(server, TAG,
  { keys: LONG_TOKENS.map((_, i) => [Math.cos(i) * 0.9, Math.sin(i) * 0.9]), values: LONG_TOKENS.map((_, i) => [i / 7, 1 - i / 7, 0.5]), labels: LONG_TOKENS.map((t) => t.slice(0, 10)) }));
