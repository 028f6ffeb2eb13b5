// The second set of figures on the article page in headless Chromium: each
// draws from the kernels and reacts to its controls without console errors
// or foreign requests, and the strict-CSP test page's attributes set each
// one's initial state. (What one figure alone does, on a page of its own:
// tests/figures/<name>/<name>.page.test.js; the heatmap's hostile and
// malformed input, the cost sweep, copy-link and the SVG/PNG downloads
// among them.)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { TAGS } from '../../web/figures/registry.js';
import { start, ready, summary, expectChange, measured, clickCell } from './harness.js';

let server;
let strict;
before(async () => { server = await start(); strict = await start({ csp: true, browser: server.browser }); });
after(async () => { await strict?.close(); await server?.close(); });

const changes = (page, tag, act) => expectChange(page, tag, act);

test('controls change what each figure shows, and the claims show', async () => {
  const { page, problems, context } = await server.open('/web/index.html');
  await changes(page, 'attention-basic', (el) => el.getByRole('radio', { name: 'teal' }).click());
  await changes(page, 'attention-basic', async (el) => { await el.locator('input[type=range]').first().focus(); await page.keyboard.press('Home'); });
  assert.match(await changes(page, 'attention-tempering', async (el) => { await el.locator('input[type=range]').first().focus(); await page.keyboard.press('End'); }), /^d_k 5\d\d:/);
  const swapped = await changes(page, 'attention-susan-mary', (el) => el.getByRole('button', { name: 'Swap Susan and Mary' }).click());
  assert.match(swapped, /^Mary gave roses to Susan, without .* identical/);
  assert.match(await changes(page, 'attention-susan-mary', (el) => el.getByText('add positional encoding').click()), /with positional encoding: y_gave is different/);
  await changes(page, 'attention-causal-mask', (el) => el.getByText('none', { exact: true }).click());
  assert.match(await changes(page, 'attention-causal-mask', (el) => clickCell(el.locator('figure.mask'), 0, 3)), /^Mask painted/);
  assert.match(await changes(page, 'attention-causal-mask', (el) => el.getByRole('button', { name: 'Previous step' }).click()), /7 tokens/);
  const dense = await changes(page, 'attention-as-dense', async (el) => { await el.locator('input[type=range]').first().focus(); await page.keyboard.press('Home'); });
  assert.match(dense, /Dense output \(.*\); the attention version gives the same in every row \(identical( up to float32 rounding)?, largest difference (0|\de-\d)\)\./);
  const conv = await ready(page, 'attention-as-conv');
  assert.match(await summary(conv), /differs from the convolution by 0; every head’s weights are exactly 0 and 1: the hard limit\./, 'the default temperature is at the hard limit');
  assert.match(await changes(page, 'attention-as-conv', async (el) => { await el.locator('input[type=range]').first().focus(); await page.keyboard.press('End'); }), /temperature (9|10)\.\d+: attention differs from the convolution by (0\.[1-9]|[1-9])/);
  await changes(page, 'attention-as-conv', (el) => el.getByText('5', { exact: true }).click());
  assert.match(await changes(page, 'attention-cross', (el) => el.getByText('English \u2192 German').click()), /German/);
  await changes(page, 'attention-cross', (el) => el.locator(':not([data-kept]) > .layered:not([data-kept]) > svg.lines text').last().click());
  // heatmap: switching layer-1 head 1 off changes layer 2 (the grid's L2 thumbnails)
  const hm = await ready(page, 'attention-heatmap');
  const thumbs = () => hm.evaluate((e) => [...e.shadowRoot.querySelectorAll('.grid .layer:nth-child(2) canvas')].map((c) => c.toDataURL()));
  const before = await thumbs();
  assert.match(await changes(page, 'attention-heatmap', (el) => el.getByText('head 1: previous word').click()), /3 of 4 heads on/);
  const afterOff = await thumbs();
  assert.notEqual(afterOff[0], before[0], 'layer 2 head 1 is recomputed without what layer 1 head 1 wrote');
  assert.equal(afterOff[1], before[1], 'layer 2 head 2 does not depend on it');
  await changes(page, 'attention-heatmap', (el) => el.locator('svg.headview text.q').nth(7).click());
  assert.deepEqual(problems, []);
  await context.close();
});

test('attributes set the initial state (strict-CSP test page)', async () => {
  const { page, problems, context } = await strict.open('/web/embed/csp-test.html');
  const expect = {
    'attention-tempering': /^d_k 256:/,
    'attention-susan-mary': /with positional encoding: y_gave is different/,
    'attention-causal-mask': /^Mask window of 3/,
    'attention-as-conv': /temperature 0\.500/,
    'attention-cross': /^English \u2192 German/,
    'attention-induction': /^1 layer, step 0 of 200/,
    'attention-tiny-gpt': /^Step 0 of 200, not started: Start trains the model in this page\./,
  };
  for (const tag of TAGS) {
    const el = await ready(page, tag);
    if (expect[tag]) assert.match(await summary(el), expect[tag], tag);
  }
  const cost = await ready(page, 'attention-cost');
  assert.equal(await cost.evaluate((e) => e.n), 4096, 'the property mirrors the attribute');
  await measured(page);
  await measured(page, 'attention-efficient');
  assert.deepEqual(problems, []);
  await context.close();
});

