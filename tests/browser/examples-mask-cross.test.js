// The page's own examples of attention-causal-mask (a list of tokens) and
// attention-cross (two sentences and their alignment), in Chromium: the
// figure draws the page's words and the kernels' numbers for them; an
// example that will not do is said above the figure, which keeps its own;
// hostile strings stay text and do not break the layout at 360 px.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, frames, layoutProblems, addFigure, SCREENSHOTS } from './harness.js';
import { engine } from '../kit/engine.js';
import { num, roundShares } from '../../web/kit/format.js';
import { causalModel, TOKENS } from '../../web/figures/causal-mask/causal-mask.model.js';
import { crossModel, PAIRS } from '../../web/figures/cross/cross.model.js';

let server;
before(async () => { server = await start(); });
after(async () => { await server?.close(); });
const attn = await engine();

/** Put `tag` with a data-example child holding `json` first in example.html's main; wait until it starts. */
const add = (page, tag, json, attrs = {}) => addFigure(page, tag, { attrs, json: { example: json } });

/** What the figure shows: its example errors, the values printed in its weights matrix and its labels, imgs in its tree. */
const seen = (page, matrix) => page.evaluate((sel) => {
  const root = document.querySelector('#mine').shadowRoot;
  const mat = root.querySelectorAll('figure.mat')[sel];
  return {
    errors: [...root.querySelectorAll('.example-error')].map((p) => p.textContent),
    values: mat.querySelector('canvas').drawing?.items.filter((it) => it.kind === 'text').map((it) => it.text) ?? [], // as painted
    labels: [...mat.querySelectorAll('text.lab')].map((t) => t.textContent),
    tokens: [...root.querySelectorAll('.tok')].map((t) => t.textContent),
    lineWords: [...root.querySelectorAll('svg.lines text:not(.side)')].map((t) => t.textContent),
    readout: root.querySelector('svg.lines + p')?.textContent,
    imgs: root.querySelectorAll('img').length,
    katexInReadout: root.querySelector('svg.lines + p')?.querySelectorAll('.katex').length ?? 0,
    summary: document.querySelector('#mine').summary,
  };
}, matrix);

const printed = (M) => Array.from({ length: M.rows }, (_, i) => roundShares(Array.from(M.data.subarray(i * M.cols, (i + 1) * M.cols)), 2)).flat().map((v) => num(v, 2));

test("causal-mask draws the page's tokens and the kernels' weights for them; a bad list is said and the figure keeps its own", async () => {
  const { page, problems, context } = await server.open('/web/embed/example.html');
  const tokens = ['<s>', 'I', 'think', 'therefore', 'I', 'am', '<pad>'];
  await add(page, 'attention-causal-mask', JSON.stringify(tokens), { preset: 'causal+padding' });
  let s = await seen(page, 1);
  assert.deepEqual(s.errors, []);
  assert.deepEqual(s.tokens, tokens);
  assert.deepEqual(s.labels, [...tokens, ...tokens]);
  // the cells above: causal + padding over the 7 tokens, written out by hand
  const cells = Array.from({ length: 49 }, (_, k) => (k % 7 > Math.floor(k / 7) || k % 7 === 6 ? '1' : '0')).join('');
  assert.deepEqual(s.values, printed(causalModel(attn, { tokens, cells }).weights));
  assert.match(s.summary, /^Mask causal \+ padding, 7 tokens\. The newest token, <pad>, attends most to /);

  await add(page, 'attention-causal-mask', JSON.stringify(['only']));
  s = await seen(page, 1);
  assert.deepEqual(s.errors, ['The example on this page could not be used (it must hold 2 to 10 tokens, it has 1); the figure shows its own.']);
  assert.deepEqual(s.tokens, TOKENS);
  assert.deepEqual(s.values, printed(causalModel(attn).weights));

  await add(page, 'attention-causal-mask', JSON.stringify(['a', 'b']), { lang: 'zh-CN', step: '1' });
  s = await seen(page, 1);
  assert.deepEqual(s.errors, []);
  assert.deepEqual(s.values, ['1.00'], 'step 1 of the page\'s two tokens');
  assert.deepEqual(problems, []);
  await context.close();
});

test("cross draws the page's sentences, lines and weights from the kernels; a bad alignment is said in the reader's language", async () => {
  const { page, problems, context } = await server.open('/web/embed/example.html');
  const example = { source: ['la', 'casa', 'blanca'], target: ['the', 'white', 'house'], align: [0, 2, 1] };
  await add(page, 'attention-cross', JSON.stringify(example), { temperature: '0.3', word: '1' });
  let s = await seen(page, 0);
  assert.deepEqual(s.errors, []);
  assert.deepEqual(s.lineWords, [...example.source, ...example.target]);
  assert.deepEqual(s.labels, [...example.target, ...example.source]);
  const m = crossModel(attn, { pair: example, temperature: 0.3 });
  assert.deepEqual(s.values, printed(m.weights));
  assert.match(s.readout, /^\u201cwhite\u201d looks at \u201cblanca\u201d with \d+% of its attention\.$/);
  assert.match(s.summary, /^This page\u2019s sentences: white looks at/);
  assert.equal(await page.evaluate(() => document.querySelector('#mine').shadowRoot.querySelector('fieldset')), null, 'no pair choice: the page\'s sentences replace the pairs');

  await add(page, 'attention-cross', JSON.stringify({ ...example, align: [0, 5, 1] }), { lang: 'zh-CN' });
  s = await seen(page, 0);
  assert.deepEqual(s.errors, ['本页提供的示例无法使用（align[1] 必须是 0 到 2 之间的整数），图表显示的是它自带的示例。']);
  assert.deepEqual(s.lineWords, [...PAIRS['en-fr'].source, ...PAIRS['en-fr'].target]);
  assert.deepEqual(s.values, printed(crossModel(attn, { pair: 'en-fr', temperature: 0.2 }).weights));
  assert.deepEqual(problems, []);
  await context.close();
});

test('hostile words stay text and fit at 360 px; a label too long is refused with a clear message', async () => {
  const { page, problems, context } = await server.open('/web/embed/example.html', { width: 360 });
  const hostile = ['<img src=x onerror="window.pwned=1">', '$\\frac{1}{0}$', '**bold**', 'Donaudampfschiff'];
  await add(page, 'attention-cross', JSON.stringify({ source: hostile.slice(1), target: hostile.slice(1).reverse(), align: [2, 1, 0] }), { word: '2' });
  let s = await seen(page, 0);
  assert.deepEqual(s.errors, []);
  assert.deepEqual(s.lineWords, [...hostile.slice(1), ...hostile.slice(1).reverse()]);
  assert.equal(s.katexInReadout, 0, 'a word\'s $…$ is not typeset');
  assert.match(s.readout, /^\u201c\$\\frac\{1\}\{0\}\$\u201d looks /);
  await frames(page);
  const fit = async (name) => {
    const box = await page.locator('#mine').evaluate((e) => ({ width: e.getBoundingClientRect().width, tb: window.__fig.textBoxes(e) }));
    assert.ok(box.width <= 360, `${name} is ${box.width}px wide`);
    await page.locator('#mine').screenshot({ path: `${SCREENSHOTS}example-${name}-phone.png` });
    assert.deepEqual(layoutProblems(box.tb), [], name);
  };
  await fit('cross-hostile');

  await add(page, 'attention-cross', JSON.stringify({ source: ['a', `${hostile[3]}x`], target: ['a'], align: [0] }));
  s = await seen(page, 0);
  assert.deepEqual(s.errors, ['The example on this page could not be used (source[1] is longer than 16 characters); the figure shows its own.']);

  await add(page, 'attention-causal-mask', JSON.stringify(['<img src=x>', '<b>b</b>', '$x$', 'Kraftfahrzeugbau']));
  s = await seen(page, 1);
  assert.deepEqual(s.errors, []);
  assert.deepEqual(s.tokens, ['<img src=x>', '<b>b</b>', '$x$', 'Kraftfahrzeugbau']);
  assert.equal(s.imgs, 0);
  await fit('causal-mask-hostile');
  await add(page, 'attention-causal-mask', JSON.stringify(['a', 'Kraftfahrzeugbaus']));
  assert.deepEqual((await seen(page, 1)).errors, ['The example on this page could not be used (item [1] is longer than 16 characters); the figure shows its own.']);
  assert.equal(await page.evaluate(() => window.pwned), undefined);
  assert.deepEqual(problems, []);
  await context.close();
});
