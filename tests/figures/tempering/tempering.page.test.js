// attention-tempering in headless Chromium, on a page of its own, on a
// phone and at the top of its slider: its histogram and gradient plot are
// drawn as wide as the column, so their labels keep their size (scaled down
// from 520 px they were 6 px at 360 px); the gradient panel says what it
// plots (the gradient at the softmax's input) and what reaches the queries,
// with the model's numbers (at d_k = 512: 1.34 without the division, 0.30
// with it).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, ready, frames } from '../../browser/harness.js';

const TAG = 'attention-tempering';
let server;
before(async () => { server = await start(); });
after(async () => { await server?.close(); });

/** Runs in the page: each SVG text of the figure with the size it is drawn at on screen (px). */
function svgTextSizes(el) {
  return [...el.shadowRoot.querySelectorAll('svg text')].filter((t) => t.textContent.trim() && t.checkVisibility()).map((t) => {
    const svg = t.ownerSVGElement;
    const scale = svg.getBoundingClientRect().width / (svg.viewBox.baseVal?.width || svg.getBoundingClientRect().width);
    return { text: t.textContent.slice(0, 20), px: parseFloat(getComputedStyle(t).fontSize) * scale };
  });
}

for (const width of [360, 1100]) {
  test(`at ${width} px the plots' labels are drawn at their own size (at least 10 px)`, async () => {
    const { page, problems, context } = await server.openFigure(TAG, { width, height: 800 });
    const el = await ready(page, TAG);
    await frames(page);
    const sizes = await el.evaluate(svgTextSizes);
    assert.ok(sizes.length >= 20, `${sizes.length} labels`);
    const small = sizes.filter((s) => s.px < 10);
    assert.deepEqual(small, [], 'labels drawn smaller than 10 px');
    const fits = await el.evaluate((e) => [...e.shadowRoot.querySelectorAll('svg')].every((s) => s.getBoundingClientRect().right <= e.getBoundingClientRect().right));
    assert.ok(fits, 'every plot fits the figure');
    assert.deepEqual(problems, []);
    await context.close();
  });
}

test('the gradient panel says what it plots and what reaches the queries, with the model\u2019s numbers', async () => {
  const { page, problems, context } = await server.openFigure(TAG);
  const el = await ready(page, TAG);
  await el.locator('input[type=range]').first().focus();
  await page.keyboard.press('End');
  await frames(page);
  const readout = await el.evaluate((e) => e.shadowRoot.querySelector('.grad p').textContent);
  assert.match(readout, /^At dₖ = 512, the gradient at the softmax’s input has mean norm 0\.060 without the division and 0\.299 with it/);
  assert.match(readout, /At dₖ = 512 the queries’ gradient has mean norm 1\.34 without the division and 0\.30 with it\.$/);
  assert.doesNotMatch(readout, /stop learning/);
  assert.match(await el.evaluate((e) => e.shadowRoot.querySelector('.grad .sub').textContent), /the gradient at the softmax’s input, its slope/);
  assert.deepEqual(problems, []);
  await context.close();
});
