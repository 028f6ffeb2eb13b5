// A page's own example (issue 14, part 3) in attention-basic, attention-matrix
// and attention-soft-dictionary, in Chromium on web/embed/example.html: the
// figure draws the page's tokens and the kernels' numbers for them (checked
// against the float64 reference here), fits 360 px with eight of them, says
// what is wrong with a bad example above its own, and keeps hostile labels
// as text. Screenshots: tests/artifacts/screenshots/example-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, frames, layoutProblems, addFigure, SCREENSHOTS } from './harness.js';
import * as ref from '../unit/reference.js';
import { num, roundShares, pcts } from '../../web/kit/format.js';

let server;
before(async () => { server = await start(); });
after(async () => { await server?.close(); });

/** Put `tag` with a data-example child holding `json` first in the page's main; wait until it has drawn. */
const add = (page, tag, json, attrs = {}) => addFigure(page, tag, { attrs, json: { example: typeof json === 'string' ? json : JSON.stringify(json) } });

// What the figure shows: its title, the problems said above it, the texts of its matrices and table, and its summary.
const read = (page) => page.evaluate(async () => {
  await window.__fig.frames();
  const el = document.querySelector('#mine');
  const root = el.shadowRoot;
  const texts = (sel) => [...root.querySelectorAll(sel)].map((e) => e.textContent);
  return {
    title: root.querySelector('.title')?.textContent,
    errors: texts('.example-error'),
    mats: [...root.querySelectorAll('figure.mat')].map((f) => ({ labels: [...f.querySelectorAll('text.lab')].map((t) => t.textContent), values: f.querySelector('canvas').drawing?.items.filter((it) => it.kind === 'text').map((it) => it.text) ?? [], hidden: f.classList.contains('later') })),
    options: texts('fieldset.choice label'),
    rows: [...root.querySelectorAll('tbody tr')].map((tr) => [...tr.cells].map((c) => c.textContent.trim())),
    planeLabels: texts('svg.plane text'),
    summary: el.summary,
    markup: root.querySelectorAll('img, b, script').length,
    error: el.getAttribute('data-error'),
  };
});

const HOSTILE = '<b>x</b>&';

test('attention-basic draws the page\'s tokens and the kernels\' weights for them; a bad example is said and the pixels stay', async () => {
  const { page, problems, context } = await server.open('/web/embed/example.html');
  const tokens = ['cat', 'dog', 'car', 'bus', 'kite', HOSTILE, 'sun', 'moon'];
  const vectors = [[0.9, 0.1, -0.2], [0.8, 0.3, -0.1], [-0.5, 0.9, 0.2], [-0.6, 0.8, 0.4], [0, -0.9, 1], [1, 1, -1], [0.2, 0.2, 0.2], [-1, -1, -1]];
  await add(page, 'attention-basic', { tokens, vectors });
  let seen = await read(page);
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
  seen = await read(page);
  const kite = pcts(want.data.slice(4 * 8, 5 * 8));
  assert.ok(seen.summary.startsWith(`The output of kite takes ${kite[0]} from cat, ${kite[1]} from dog`), seen.summary);
  assert.equal(await page.locator('#mine').evaluate((e) => e.shadowRoot.querySelector('.tools button[hidden]') !== null), true, 'no link: it could not name the page\'s tokens');

  await add(page, 'attention-basic', { tokens: ['a', 'b'], vectors: [[0, 0, 0], [0, 2, 0]] });
  seen = await read(page);
  assert.deepEqual(seen.errors, ['The example on this page could not be used (vectors[1] must be 3 numbers from -1 to 1); the figure shows its own.']);
  assert.equal(seen.title, 'Attention with no parameters: four pixels weigh each other');
  assert.deepEqual(seen.options, ['red', 'orange', 'blue', 'teal']);

  await add(page, 'attention-basic', { tokens: ['ok', '<img src=x onerror="window.pwned=1">'], vectors: [[0, 0, 0], [0, 1, 0]] }, { lang: 'zh-CN' });
  seen = await read(page);
  assert.deepEqual(seen.errors, ['本页提供的示例无法使用（tokens[1] 必须是 1 到 10 个字母（或最多 5 个汉字）的文字），图表显示的是它自带的示例。']);
  assert.equal(await page.evaluate(() => window.pwned), undefined);

  await add(page, 'attention-basic', '{"tokens": [');
  assert.match((await read(page)).errors[0], /^The example on this page could not be used \(it is not valid JSON: /);
  assert.deepEqual(problems, []);
  await context.close();
});

test('attention-matrix steps through the page\'s tokens and vectors (d = 2) with the kernels\' numbers', async () => {
  const { page, problems, context } = await server.open('/web/embed/example.html');
  const tokens = ['the', 'cat', 'sat', 'on', 'the', 'mat'];
  const vectors = [[0.1, -0.5], [0.9, 0.2], [-0.3, 1], [0, 0], [0.1, -0.5], [1, -1]];
  await add(page, 'attention-matrix', { tokens, vectors }, { step: '5' });
  const seen = await read(page);
  assert.deepEqual(seen.errors, []);
  const [X, , , , , , P] = seen.mats;
  assert.deepEqual(X.labels, [...tokens, '1', '2'], 'tokens label the rows, feature numbers the columns');
  assert.deepEqual(X.values, vectors.flat().map((v) => num(v)));
  const Q = ref.matmul(ref.asMatrix(vectors), ref.asMatrix([[1.5, 0], [0, 1.5]]));
  const want = ref.softmax(ref.scores(Q, Q, { scale: 1 / Math.sqrt(2) }));
  const printed = Array.from({ length: 6 }, (_, i) => roundShares(want.data.slice(i * 6, (i + 1) * 6), 2).map((v) => num(v))).flat();
  assert.deepEqual(P.values, printed, 'P = softmax(QK^T / sqrt(2)) of the page\'s vectors');
  assert.equal(P.hidden, false, 'step 5 shows P');
  assert.match(seen.summary, /^Step 5: softmax per row\./);
  await add(page, 'attention-matrix', { tokens: ['a', 'b'], vectors: [[0, 0], [0, 0, 0]] });
  const bad = await read(page);
  assert.deepEqual(bad.errors, ['The example on this page could not be used (vectors[1] must be 2 numbers from -1 to 1); the figure shows its own.']);
  assert.deepEqual(bad.mats[0].labels, ['sky', 'sun', 'grass', 'roof', 'r', 'g', 'b']);
  assert.deepEqual(problems, []);
  await context.close();
});

test('attention-soft-dictionary looks up the page\'s keys and values under its labels', async () => {
  const { page, problems, context } = await server.open('/web/embed/example.html');
  const labels = ['rouge', 'vert', HOSTILE];
  const keys = [[-0.5, 0.5], [0.5, 0.5], [0, -0.5]];
  await add(page, 'attention-soft-dictionary', { keys, values: [[1, 0, 0], [0, 1, 0], [0, 0, 1]], labels }, { query: '0.2,0.1', temperature: '0.5' });
  const seen = await read(page);
  assert.deepEqual(seen.errors, []);
  assert.deepEqual(seen.planeLabels, labels);
  assert.equal(seen.markup, 0);
  const scores = keys.map(([x, y]) => -((x - 0.2) ** 2 + (y - 0.1) ** 2) / 0.5);
  const top = Math.max(...scores);
  const e = scores.map((s) => Math.exp(s - top));
  const w = e.map((v) => v / e.reduce((a, b) => a + b, 0));
  assert.deepEqual(seen.rows.map((r) => [r[0], r[2]]), labels.map((l, i) => [l, pcts(w)[i]]));
  assert.match(seen.summary, /^Query at 0\.20, 0\.10, temperature 0\.500: weights rouge /);
  await add(page, 'attention-soft-dictionary', { keys, values: [[1, 0, 0], [0, 1, 0]], labels });
  const bad = await read(page);
  assert.deepEqual(bad.errors, ['The example on this page could not be used ("values" must have 3 entries, as many as "keys", it has 2); the figure shows its own.']);
  assert.deepEqual(bad.planeLabels, ['cherry', 'lemon', 'sea', 'moss', 'plum']);
  assert.deepEqual(problems, []);
  await context.close();
});

test('with eight long tokens each figure fits 360 px, light and dark, and no text overlaps', async () => {
  const tokens = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'etaetaetae', '\u6ce8\u610f\u529b\u673a\u5236'];
  const examples = {
    'attention-basic': { tokens, vectors: tokens.map((_, i) => [Math.cos(i), Math.sin(i), (i % 3) - 1]) },
    // the matrix takes labels of at most eight letters (or four Chinese characters)
    'attention-matrix': { tokens: [...tokens.slice(0, 6), 'etaetaet', '\u6ce8\u610f\u529b\u673a'], vectors: tokens.map((_, i) => [Math.cos(i), Math.sin(i), -1, 1, 0.5, -0.25]) },
    'attention-soft-dictionary': { keys: tokens.map((_, i) => [Math.cos(i) * 0.9, Math.sin(i) * 0.9]), values: tokens.map((_, i) => [i / 7, 1 - i / 7, 0.5]), labels: tokens.map((t) => t.slice(0, 10)) },
  };
  for (const colorScheme of ['light', 'dark']) {
    const { page, problems, context } = await server.open('/web/embed/example.html', { width: 360, height: 3000, colorScheme });
    for (const [tag, data] of Object.entries(examples)) {
      await add(page, tag, data);
      assert.deepEqual((await read(page)).errors, [], tag);
      const el = page.locator('#mine');
      const box = await el.evaluate((e) => ({ width: e.getBoundingClientRect().width, inner: e.shadowRoot.firstElementChild.scrollWidth }));
      assert.ok(box.width <= 360 && box.inner <= 360, `${tag} is ${box.width}px wide, its content ${box.inner}px`);
      assert.deepEqual(layoutProblems(await el.evaluate((e) => window.__fig.textBoxes(e))), [], tag);
      await el.screenshot({ path: `${SCREENSHOTS}example-${tag}-phone${colorScheme === 'dark' ? '-dark' : ''}.png` });
    }
    assert.deepEqual(problems, []);
    await context.close();
  }
});
