// examples.js: what the browser tests of a page's own example (a figure's
// data-example child: attention-basic, -matrix, -soft-dictionary,
// -causal-mask, -cross) share: putting one on the page, reading what the
// figure shows of it, and its fit at 360 px.
import assert from 'node:assert/strict';
import { addFigure, layoutProblems, ready, SCREENSHOTS } from './harness.js';
import { num, roundShares } from '../../web/kit/format.js';

/** A label that looks like markup. */
export const HOSTILE = '<b>x</b>&';

/** Eight tokens as long as a label may be (ten letters, or five Chinese characters). */
export const LONG_TOKENS = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'etaetaetae', '\u6ce8\u610f\u529b\u673a\u5236'];

const asJson = (example) => (typeof example === 'string' ? example : JSON.stringify(example));

/** Open `server`'s page of `tag` alone (openFigure; `opts` as its) with `example` as its data-example (JSON text, or a value to write as JSON), id "mine"; wait until it has drawn. */
export async function openExample(server, tag, example, { attrs = {}, ...opts } = {}) {
  const opened = await server.openFigure(tag, { attrs: { id: 'mine', ...attrs }, json: { example: asJson(example) }, ...opts });
  await ready(opened.page, '#mine');
  return opened;
}

/** Put `tag` (id "mine", replacing the last one put) with a data-example child holding `example` (JSON text, or a value to write as JSON); wait until it has drawn. */
export const addExample = (page, tag, example, attrs = {}) => addFigure(page, tag, { attrs, json: { example: asJson(example) } });

/**
 * What the figure #mine shows: the problems said above it, its title and
 * summary, each matrix's labels, the values its canvas paints and whether it
 * waits for a later step, the choices it offers, its table's rows, the
 * labels on its plane, its tokens, the words its lines join and their
 * read-out (and any math typeset there), and how many elements markup
 * would have made in it (img, b, script); with `weights` (the index of its
 * weights matrix) that matrix's `labels` and `values` too.
 */
export const exampleView = (page, weights) => page.evaluate(async (k) => {
  await window.__fig.frames();
  const el = document.querySelector('#mine');
  const root = el.shadowRoot;
  const texts = (sel, within = root) => [...within.querySelectorAll(sel)].map((e) => e.textContent);
  const readout = root.querySelector('svg.lines') && root.querySelector('p.readout'); // (cross's: under its lines)
  const view = {
    title: root.querySelector('.title')?.textContent,
    errors: texts('.example-error'),
    mats: [...root.querySelectorAll('figure.mat')].map((f) => ({
      labels: texts('text.lab', f),
      values: f.querySelector('canvas').drawing?.items.filter((it) => it.kind === 'text').map((it) => it.text) ?? [], // as painted
      hidden: f.classList.contains('later'),
    })),
    options: texts('fieldset.choice label'),
    rows: [...root.querySelectorAll('tbody tr')].filter((tr) => !tr.closest('[data-kept]')).map((tr) => [...tr.cells].map((c) => c.textContent.trim())),
    planeLabels: texts('svg.plane text'),
    tokens: texts('.tok'),
    lineWords: texts(':not([data-kept]) > .layered:not([data-kept]) > svg.lines text:not(.side)'), // (the pair shown, not those kept)
    readout: readout?.textContent,
    katexInReadout: readout?.querySelectorAll('.katex').length ?? 0,
    markup: root.querySelectorAll('img, b, script').length,
    summary: el.summary,
  };
  return { ...view, ...view.mats[k] };
}, weights);

/** The values a matrix view paints for M ({rows, cols, data}, from the kernels): each row's shares, rounded so that they sum to 1, to two decimals. */
export const printed = (M) => Array.from({ length: M.rows }, (_, i) => roundShares(Array.from(M.data.subarray(i * M.cols, (i + 1) * M.cols)), 2)).flat().map((v) => num(v, 2));

/**
 * On a 360 px page the figure #mine and its content are at most 360 px
 * wide and no text overlaps or is cut off; its screenshot is
 * tests/artifacts/screenshots/<name>.png.
 */
export async function expectFits360(page, name) {
  const el = page.locator('#mine');
  const box = await el.evaluate((e) => ({ width: e.getBoundingClientRect().width, inner: e.shadowRoot.firstElementChild.scrollWidth, text: window.__fig.textBoxes(e) }));
  assert.ok(box.width <= 360 && box.inner <= 360, `${name} is ${box.width}px wide, its content ${box.inner}px`);
  await el.screenshot({ path: `${SCREENSHOTS}${name}.png` });
  assert.deepEqual(layoutProblems(box.text), [], name);
}

/** With `example`, `tag` alone on a 360 px page, light and dark, says no problem with it and fits (expectFits360); nothing goes wrong on the page. */
export async function expectExampleFits360(server, tag, example) {
  for (const colorScheme of ['light', 'dark']) {
    const { page, problems, context } = await openExample(server, tag, example, { width: 360, height: 3000, colorScheme });
    assert.deepEqual((await exampleView(page)).errors, [], tag);
    await expectFits360(page, `example-${tag}-phone${colorScheme === 'dark' ? '-dark' : ''}`);
    assert.deepEqual(problems, []);
    await context.close();
  }
}
