// attention-cross in headless Chromium, on a page of its own with the
// page's own example (two sentences and their alignment in a data-example
// child): it draws the page's words, lines and the kernels' weights for
// them; an alignment that will not do is said above the figure (in the
// reader's language), which keeps its own pairs; hostile words stay text
// and do not break the layout at 360 px. Screenshots:
// tests/artifacts/screenshots/example-cross-hostile-phone.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, addFigure, frames } from '../../browser/harness.js';
import { openExample, addExample, exampleView, expectFits360, printed } from '../../browser/examples.js';
import { engine } from '../../kit/engine.js';
import { crossModel, PAIRS } from '../../../web/figures/cross/cross.model.js';

const TAG = 'attention-cross';

let server;
before(async () => { server = await start(); });
after(async () => { await server?.close(); });
const attn = await engine();

test("cross draws the page's sentences, lines and weights from the kernels; a bad alignment is said in the reader's language", async () => {
  const example = { source: ['la', 'casa', 'blanca'], target: ['the', 'white', 'house'], align: [0, 2, 1] };
  const { page, problems, context } = await openExample(server, TAG, example, { attrs: { temperature: '0.3', word: '1' } });
  let s = await exampleView(page, 0);
  assert.deepEqual(s.errors, []);
  assert.deepEqual(s.lineWords, [...example.source, ...example.target]);
  assert.deepEqual(s.labels, [...example.target, ...example.source]);
  const m = crossModel(attn, { pair: example, temperature: 0.3 });
  assert.deepEqual(s.values, printed(m.weights));
  assert.match(s.readout, /^\u201cwhite\u201d looks at \u201cblanca\u201d with \d+% of its attention\.$/);
  assert.match(s.summary, /^This page\u2019s sentences: white looks at/);
  assert.equal(await page.evaluate(() => document.querySelector('#mine').shadowRoot.querySelector('fieldset')), null, 'no pair choice: the page\'s sentences replace the pairs');

  await addExample(page, TAG, { ...example, align: [0, 5, 1] }, { lang: 'zh-CN' });
  s = await exampleView(page, 0);
  assert.deepEqual(s.errors, ['本页提供的示例无法使用（align[1] 必须是 0 到 2 之间的整数），图表显示的是它自带的示例。']);
  assert.deepEqual(s.lineWords, [...PAIRS['en-fr'].source, ...PAIRS['en-fr'].target]);
  assert.deepEqual(s.values, printed(crossModel(attn, { pair: 'en-fr', temperature: 0.2 }).weights));
  assert.deepEqual(problems, []);
  await context.close();
});

test('hostile words stay text and fit at 360 px; a label too long is refused with a clear message', async () => {
  const hostile = ['<img src=x onerror="window.pwned=1">', '$\\frac{1}{0}$', '**bold**', 'Donaudampfschiff'];
  const { page, problems, context } = await openExample(server, TAG, { source: hostile.slice(1), target: hostile.slice(1).reverse(), align: [2, 1, 0] }, { attrs: { word: '2' }, width: 360 });
  let s = await exampleView(page, 0);
  assert.deepEqual(s.errors, []);
  assert.deepEqual(s.lineWords, [...hostile.slice(1), ...hostile.slice(1).reverse()]);
  assert.equal(s.katexInReadout, 0, 'a word\'s $…$ is not typeset');
  assert.match(s.readout, /^\u201c\$\\frac\{1\}\{0\}\$\u201d looks /);
  await expectFits360(page, 'example-cross-hostile-phone');

  await addExample(page, TAG, { source: ['a', `${hostile[3]}x`], target: ['a'], align: [0] });
  s = await exampleView(page, 0);
  assert.deepEqual(s.errors, ['The example on this page could not be used (source[1] is longer than 16 characters); the figure shows its own.']);
  assert.equal(await page.evaluate(() => window.pwned), undefined);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the pairs take turns in one place as tall as the tallest: choosing one moves nothing below the figure (keep.js showOne)', async () => {
  const { page, problems, context } = await server.open('/web/embed/example.html');
  await page.setViewportSize({ width: 360, height: 800 });
  await addFigure(page, TAG);
  await page.waitForFunction(() => document.querySelector('#mine')?.hasAttribute('data-ready'));
  const el = page.locator('#mine');
  const height = async (pair) => {
    await el.evaluate((e, p) => { e.pair = p; }, pair);
    await frames(page);
    return el.evaluate((e) => e.getBoundingClientRect().height);
  };
  // each pair's own height: the parts one after another, as a page without the stacking rule would lay them out
  const unstacked = (on) => el.evaluate((e, on) => {
    window.__unstacked ??= new CSSStyleSheet();
    window.__unstacked.replaceSync('[data-stack] { display: block; } [data-stack] > * { contain-intrinsic-block-size: none; }');
    const sheets = e.shadowRoot.adoptedStyleSheets.filter((s) => s !== window.__unstacked);
    e.shadowRoot.adoptedStyleSheets = on ? [...sheets, window.__unstacked] : sheets;
  }, on);
  const pairs = Object.keys(PAIRS);
  await unstacked(true);
  const own = [];
  for (const pair of pairs) own.push(await height(pair));
  assert.ok(Math.max(...own) > Math.min(...own) + 20, `the pairs differ in height at 360 px (${own.join(', ')})`);
  await unstacked(false);
  for (const pair of [...pairs, ...pairs.reverse()]) assert.equal(await height(pair), Math.max(...own), pair);
  assert.deepEqual(problems, []);
  await context.close();
});
