// attention-efficient in headless Chromium, on a page of its own: it draws
// from the kernels, its controls (window slider, features slider, a click
// on a row, the global tokens typed) change what it shows; attributes land
// on the values the sliders offer, and the sliders step value to value; the
// Performer's caption and its error plot read one number; tokens are
// numbered from 1 in the captions, the read-out and the field alike; on a
// phone the matrices fill the column; a skipped measurement says why in the
// text; under the strict CSP its sweep runs in its own worker and fills the
// time plot and table; a double click on Measure is one press (one sweep),
// and the earlier results stay on screen until it has its own. Screenshots
// (desktop, after the full sweep) go to tests/artifacts/screenshots/; the
// 360 px and dark ones come from tests/browser/layout.test.js. (What it
// shares with attention-cost, turns and workers: tests/browser/measuring.test.js.)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, ready, summary, expectChange, measured, frames, SCREENSHOTS, clickCell, spyOnWorkers, measuringWorkers as workers, sweepRows as rows } from '../../browser/harness.js';

const TAG = 'attention-efficient';
const FEATURES = [4, 8, 16, 32, 64, 128, 256, 512, 1024];
let server;
let strict;
before(async () => { server = await start(); strict = await start({ csp: true, browser: server.browser }); });
after(async () => { await strict?.close(); await server?.close(); });

const prepare = (page) => page.addInitScript(spyOnWorkers);
const status = (page) => page.evaluate(() => document.querySelector('#mine').shadowRoot.querySelector('.status').textContent);
const phase = (page) => page.evaluate(() => document.querySelector('#mine').sweep?.phase);
const caption = (el, k) => el.evaluate((e, i) => e.shadowRoot.querySelectorAll('.pattern')[i].querySelector(':scope > p').textContent, k);

test('the window, the features, a click on a row and the typed tokens change the figure; tokens are numbered from 1 everywhere', async () => {
  const { page, problems, context } = await server.openFigure(TAG);
  const el = await ready(page, TAG);
  await measured(page, TAG);
  assert.match(await summary(el), /^Window 3: keeps \d+% of the weight\. Performer with 64 features misplaces \d+%\.$/);
  const slide = (index, key) => async (e) => { await e.locator('input[type=range]').nth(index).focus(); await page.keyboard.press(key); };
  assert.match(await expectChange(page, TAG, slide(0, 'End')), /^Window 12: keeps/);
  assert.match(await expectChange(page, TAG, slide(1, 'End')), /Performer with 1024 features/);
  // a click on a row of the window's weights makes that token global: the row fills up
  assert.match(await caption(el, 1), /global: 1\./, 'token 0 (the attribute) is token 1 on screen');
  assert.equal(await el.locator('input[type=text]').inputValue(), '1');
  await clickCell(el.locator('.pattern').nth(1), 20, 5);
  await page.waitForFunction((tag) => /global: 1, 21\./.test(document.querySelector(tag).shadowRoot.querySelectorAll('.pattern')[1].querySelector(':scope > p').textContent), TAG);
  assert.equal(await el.evaluate((e) => e.global), '0,20', 'the property mirrors the state (positions from 0)');
  // the read-out of the clicked cell names the same row
  assert.match(await el.evaluate((e) => e.shadowRoot.querySelectorAll('.pattern')[1].querySelector('.cap').textContent), /^window\[21, 6\] = /);
  assert.equal(await el.locator('input[type=text]').inputValue(), '1, 21', 'the field shows the tokens as the caption does');
  // typed: what names no token is said, the rest is used
  await el.locator('input[type=text]').fill('3, 40, x, 32');
  await el.locator('input[type=text]').press('Enter');
  await frames(page);
  assert.equal(await el.evaluate((e) => e.global), '2,31');
  assert.match(await caption(el, 1), /global: 3, 32\./);
  assert.equal(await el.locator('input[type=text]').inputValue(), '3, 32');
  assert.equal(await el.locator('.globals .ignored').textContent(), 'Not a token here: 40, x (the tokens are numbered 1 to 32).');
  assert.deepEqual(problems, []);
  await context.close();
});

test('attributes land on the values the sliders offer; the sliders step value to value; caption and plot read one number', async () => {
  const { page, problems, context } = await server.openFigure(TAG, { attrs: { features: '100', n: '3000', window: '2.6', budget: '5' } });
  const el = await ready(page, TAG);
  await measured(page, TAG);
  const shown = () => el.evaluate((e) => {
    const root = e.shadowRoot;
    const [w, m, n] = [...root.querySelectorAll('input[type=range]')].map((r) => r.dataset.value);
    return {
      state: [e.window, e.features, e.n], sliders: [w, m, n],
      button: root.querySelector('.controls button').textContent,
      caption: root.querySelectorAll('.pattern')[2].querySelector(':scope > p').textContent,
      plot: root.querySelectorAll('.plots svg')[1].getAttribute('aria-label'),
      summary: e.summary,
    };
  });
  let s = await shown();
  assert.deepEqual(s.state, [3, 128, 4096], 'window rounded, features and N snapped to powers of 2');
  assert.deepEqual(s.sliders, ['3', '128', '4096']);
  assert.equal(s.button, 'Measure up to N = 4096');
  assert.match(s.caption, /^128 features \(one draw shown\)\. Averaged over 6 draws, \d+% /);
  // one step of an arrow key is one value of the slider, both ways
  const press = async (index, key) => { await el.locator('input[type=range]').nth(index).focus(); await page.keyboard.press(key); await frames(page); };
  await press(1, 'ArrowRight');
  assert.equal(await el.evaluate((e) => e.features), 256);
  await press(1, 'ArrowLeft');
  await press(1, 'ArrowLeft');
  assert.equal(await el.evaluate((e) => e.features), 64);
  await press(2, 'ArrowRight');
  assert.equal(await el.evaluate((e) => e.n), 8192);
  await press(2, 'ArrowLeft');
  await press(2, 'ArrowLeft');
  assert.equal(await el.evaluate((e) => e.n), 2048);
  // at every feature count, the caption, the plot's mark and the summary give the same average
  for (let k = 0; k < FEATURES.length; k++) {
    await press(1, k === 0 ? 'Home' : 'ArrowRight');
    s = await shown();
    const m = FEATURES[k];
    const [, atCaption] = s.caption.match(/^(\d+) features .*?Averaged over 6 draws, (\d+%)/).slice(1);
    assert.equal(s.caption.split(' ')[0], String(m));
    assert.match(s.plot, new RegExp(`marked: ${atCaption} at ${m}\\.$`), `m = ${m}: ${s.caption} / ${s.plot}`);
    assert.match(s.summary, new RegExp(`Performer with ${m} features misplaces ${atCaption}\\.$`));
  }
  // the article's numbers: about 31% with 4 features, about 11% with 1,024
  assert.match((await shown()).plot, /falls from 31% at 4 features to 11% at 1024/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('on a phone the matrices fill the column; a skipped measurement says why in the text', async () => {
  const { page, problems, context } = await server.openFigure(TAG, { attrs: { n: '65536', budget: '5' }, width: 360, height: 740 });
  const el = await ready(page, TAG);
  const rows = await el.evaluate((e) => [...e.shadowRoot.querySelectorAll('.pattern svg')].map((s) => s.getBoundingClientRect().height / 32));
  for (const h of rows) assert.ok(h >= 9, `a row of a matrix is ${h.toFixed(1)} px tall`);
  const field = await el.evaluate((e) => e.shadowRoot.querySelector('.globals input').getBoundingClientRect().height);
  assert.ok(field >= 32, `the global tokens' field is ${field} px tall`);
  await measured(page, TAG);
  await el.getByRole('button', { name: /Measure up to N = 65536/ }).click();
  await measured(page, TAG, /Done|failed|Stopped/);
  const note = await el.evaluate((e) => e.shadowRoot.querySelector('.skips')?.textContent ?? '');
  assert.match(note, /^Skipped: (full|window 32|Performer, 64 features)(, on \d+ cores)? from N = \d+ on: (one run would take about [\d.]+ m?s|the time budget is spent)[;.]/);
  assert.equal(await el.evaluate((e) => e.shadowRoot.querySelectorAll('td.skip[title]').length), 0, 'no reason only in a tooltip');
  await el.screenshot({ path: `${SCREENSHOTS}${TAG}-skipped-phone.png` });
  assert.deepEqual(problems, []);
  await context.close();
});

test('under the strict CSP the sweep runs in its worker: three series and full attention on every core, their slopes, a table', async () => {
  const { page, problems, foreign, requests, context } = await strict.openFigure(TAG, { attrs: { n: '2048', budget: '5' } });
  const el = await ready(page, TAG);
  await measured(page, TAG);
  await el.getByRole('button', { name: /Measure up to N = 2048/ }).click();
  await measured(page, TAG, /Done|failed|Stopped/);
  assert.match(await el.locator('.status').innerText(), /^Done in/);
  const seen = await el.evaluate((e) => ({
    series: ['full', 'window', 'linear', 'cores'].map((m) => e.shadowRoot.querySelector('.plot').querySelectorAll(`polyline.${m}`).length),
    slopes: e.shadowRoot.querySelector('.plots + .note').textContent,
    rows: [...e.shadowRoot.querySelectorAll('tbody tr')].filter((tr) => tr.cells[1].textContent !== '').length, // sizes measured
    cores: navigator.hardwareConcurrency,
    onCores: e.results.filter((r) => r.mechanism === 'cores' && !r.skipped),
  }));
  // full attention on every core (a pool in the sweep's worker, dist/figures/pool-worker.js under this CSP)
  // where the browser reports more than one, else none
  const many = seen.cores > 1;
  assert.deepEqual(seen.series, [1, 1, 1, many ? 1 : 0], 'a line per mechanism');
  assert.ok(many ? seen.onCores.length >= 3 && seen.onCores.every((r) => r.cores === seen.cores && r.ms > 0) : !seen.onCores.length, JSON.stringify(seen.onCores));
  const onCores = many ? `, full, on ${seen.cores} cores -?\\d+\\.\\d` : '';
  assert.match(seen.slopes, new RegExp(`^Log-log slopes of time against N, from N = 1024 on: full -?\\d+\\.\\d, window 32 -?\\d+\\.\\d, Performer, 64 features -?\\d+\\.\\d${onCores}\\.$`)); // any value: tests never assert on time
  assert.ok(seen.rows >= 3, `${seen.rows} sizes measured`);
  assert.ok(requests.some((u) => u.endsWith('/dist/figures/efficient.worker.js')), 'the worker is its own same-origin file');
  await el.screenshot({ path: `${SCREENSHOTS}${TAG}-sweep.png` });
  assert.deepEqual(problems, []);
  assert.deepEqual(foreign(), []);
  await context.close();
});

test('efficient: a double click on Measure is one press, and the earlier results stay until the new sweep has its own', async () => {
  const { page, problems, context } = await server.openFigure(TAG, { attrs: { id: 'mine', n: '2048', budget: '5' }, prepare });
  await measured(page, '#mine');
  const earlier = await rows(page, '#mine');
  assert.ok(earlier >= 3);
  const starts = (await workers(page)).starts;
  await page.locator('#mine').getByRole('button', { name: 'Measure up to N = 2048' }).dblclick();
  await frames(page);
  assert.equal(await page.locator('#mine').locator('.controls button').nth(0).innerText(), 'Stop', 'measuring, not stopped again');
  assert.equal(await phase(page), 'running');
  await measured(page, '#mine', /Done|failed|Stopped/);
  assert.match(await status(page), /^Done in/);
  assert.equal((await workers(page)).starts, starts + 1, 'one sweep');
  assert.ok(await rows(page, '#mine') >= 3);
  // a Stop before the first result keeps what was there (two presses in one task: no result can come between)
  await page.evaluate(() => { const b = document.querySelector('#mine').shadowRoot.querySelector('button.measure'); b.click(); b.click(); });
  await frames(page);
  assert.match(await status(page), /^Stopped\.$/);
  assert.ok(await rows(page, '#mine') >= 3, 'the earlier results are still shown');
  assert.equal((await workers(page)).live, 0);
  assert.deepEqual(problems, []);
  await context.close();
});
