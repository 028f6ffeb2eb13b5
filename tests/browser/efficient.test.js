// attention-efficient in headless Chromium: it draws from the kernels, its
// controls (window slider, features slider, a click on a row) change what it
// shows, and under the strict CSP its sweep runs in its own worker and fills
// the time plot and table. Screenshots (desktop, after the full sweep) go to
// tests/artifacts/screenshots/; the 360 px and dark ones come from
// figures-2.test.js.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, ready, summary, expectChange, measured, SCREENSHOTS, clickCell } from './harness.js';

const TAG = 'attention-efficient';
let server;
let strict;
before(async () => { [server, strict] = await Promise.all([start(), start({ csp: true })]); });
after(async () => { await Promise.all([server?.close(), strict?.close()]); });


test('the window, the features and a click on a row change the figure', async () => {
  const { page, problems, context } = await server.open('/web/index.html');
  const el = await ready(page, TAG);
  await measured(page, TAG);
  assert.match(await summary(el), /^Window 3: keeps \d+% of the weight\. Performer with 64 features misplaces \d+%\.$/);
  const slide = (index, key) => async (e) => { await e.locator('input[type=range]').nth(index).focus(); await page.keyboard.press(key); };
  assert.match(await expectChange(page, TAG, slide(0, 'End')), /^Window 12: keeps/);
  assert.match(await expectChange(page, TAG, slide(1, 'End')), /Performer with 1024 features/);
  // a click on a row of the window's weights makes that token global: the row fills up
  const before = await el.evaluate((e) => e.shadowRoot.querySelectorAll('.pattern')[1].querySelector('p').textContent);
  assert.match(before, /global: 0\./);
  await clickCell(el.locator('.pattern').nth(1), 20, 5);
  await page.waitForFunction((tag) => /global: 0, 20\./.test(document.querySelector(tag).shadowRoot.querySelectorAll('.pattern')[1].querySelector('p').textContent), TAG);
  assert.equal(await el.evaluate((e) => e.global), '0,20', 'the property mirrors the state');
  assert.deepEqual(problems, []);
  await context.close();
});

test('under the strict CSP the sweep runs in its worker: three series, their slopes, a table', async () => {
  const { page, problems, foreign, requests, context } = await strict.open('/web/embed/csp-test.html');
  const el = await ready(page, TAG);
  await measured(page, TAG);
  await el.getByRole('button', { name: /Measure up to N = 2048/ }).click();
  await measured(page, TAG, /Done|failed|Stopped/);
  assert.match(await el.locator('.status').innerText(), /^Done in/);
  const seen = await el.evaluate((e) => ({
    series: ['full', 'window', 'linear'].map((m) => e.shadowRoot.querySelector('.plot').querySelectorAll(`polyline.${m}`).length),
    slopes: e.shadowRoot.querySelector('.plots + .note').textContent,
    rows: e.shadowRoot.querySelectorAll('tbody tr').length,
  }));
  assert.deepEqual(seen.series, [1, 1, 1], 'a line per mechanism');
  assert.match(seen.slopes, /^Log-log slopes of time against N, from N = 1024 on: full -?\d+\.\d, window 32 -?\d+\.\d, Performer, 64 features -?\d+\.\d\.$/); // any value: tests never assert on time
  assert.ok(seen.rows >= 3, `${seen.rows} sizes measured`);
  assert.ok(requests.some((u) => u.endsWith('/dist/efficient.worker.js')), 'the worker is its own same-origin file');
  await el.screenshot({ path: `${SCREENSHOTS}${TAG}-sweep.png` });
  assert.deepEqual(problems, []);
  assert.deepEqual(foreign(), []);
  await context.close();
});
