// attention-induction in headless Chromium, on a page of its own under the
// strict CSP: the model trains in its Web Worker (a same-origin file) while
// the page keeps drawing; start, pause, continue, reset and the layer switch
// work; a layer-2 head's prefix-matching score passes 0.5, at a step the
// figure names exactly; switching the induction heads off brings the repeat
// loss back. For screen readers: the status line is not a live region; the live
// region speaks at a human pace (every few seconds, and at once when
// training starts, when the milestone comes and when it ends); the start
// button, disabled when training ends, hands keyboard focus to Reset; the
// four head switches have four names. "Copy link" after training says the
// link holds the settings, not the training. Whole-number attributes are
// rounded (seed="1.5", steps="120.7"). Screenshots before, during and after
// training (desktop; 360 px and dark after training).
// Timings are measured and written to tests/artifacts/induction-timing.json,
// never asserted: how long after pressing start the default figure shows a
// layer-2 prefix-matching score above 0.5, and the longest gap between two
// animation frames while it trains (the page never stalls).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { start, ready, summary, frames, ARTIFACTS, SCREENSHOTS } from '../../browser/harness.js';
import { figurePage } from '../../../scripts/figure-page.mjs';

const TAG = 'attention-induction';
let strict;
before(async () => { strict = await start({ csp: true }); });
after(async () => { await strict?.close(); });

const status = (el) => el.evaluate((e) => e.shadowRoot.querySelector('.status').textContent);
const waitStatus = (page, re, timeout = 180000) => page.waitForFunction(
  (src) => new RegExp(src).test(document.querySelector('attention-induction').shadowRoot.querySelector('.status').textContent),
  re.source, { timeout });

test('trains in its worker under the strict CSP: induction forms, the page keeps drawing, ablation undoes it', async (t) => {
  const { page, problems, foreign, requests, context } = await strict.openFigure(TAG);
  const el = await ready(page, TAG);
  await waitStatus(page, /not started$/);
  await el.screenshot({ path: `${SCREENSHOTS}${TAG}-before.png` });
  // the heads' panel says what fills it, and how
  const heads = () => el.evaluate((e) => ({ text: e.shadowRoot.querySelector('.layers').textContent, maps: e.shadowRoot.querySelectorAll('.layers canvas').length }));
  assert.deepEqual(await heads(), { text: 'Press Start training to see the sample and every head\u2019s attention on it: untrained at first, then as the model learns to copy.', maps: 0 });
  assert.match(await summary(el), /^2 layers, step 0 of 1000, not started: Start trains the model in this page\./);
  // nothing of the model is loaded before Start: no worker, not the full engine
  assert.deepEqual(requests.filter((u) => /induction\.worker\.js$|\/attention(\.relaxed|\.simd)?\.wasm$/.test(u)), []);
  assert.equal(await el.evaluate((e) => e.shadowRoot.querySelector('.status').closest('[aria-live]')), null, 'the status line, which changes 20 times a second, is not a live region');
  // what the live region says, and when, and when the milestone shows
  await el.evaluate((e) => {
    const w = (window.__spoken = { said: [], t0: performance.now() });
    const live = e.shadowRoot.querySelector(':host > [aria-live]');
    new MutationObserver(() => w.said.push({ t: performance.now(), text: live.textContent })).observe(live, { childList: true, characterData: true, subtree: true });
    const m = e.shadowRoot.querySelector('.milestone');
    new MutationObserver(() => { w.milestoneAt ??= m.textContent ? performance.now() : undefined; }).observe(m, { childList: true, characterData: true, subtree: true });
  });

  // Press start; in the page, time until the figure reports a layer-2
  // prefix-matching score above 0.5, and every gap between animation frames.
  await page.evaluate(() => {
    const e = document.querySelector('attention-induction');
    const w = (window.__induction = { gaps: [], last: 0 });
    const frame = (now) => {
      if (w.last) w.gaps.push(now - w.last);
      w.last = now;
      if (!w.reached) w.raf = requestAnimationFrame(frame);
    };
    const poll = () => {
      const s = e.view?.scores?.[1];
      if (s && Math.max(...s.map((x) => x.prefixMatching)) > 0.5) w.reached = { ms: performance.now() - w.t0, step: e.msg.step };
      else setTimeout(poll, 10);
    };
    w.t0 = performance.now();
    e.shadowRoot.querySelector('.controls button').focus(); // started from the keyboard
    requestAnimationFrame(frame);
    poll();
  });
  await page.keyboard.press('Enter');
  await page.waitForTimeout(700);
  await el.screenshot({ path: `${SCREENSHOTS}${TAG}-during.png` });
  await page.waitForFunction(() => window.__induction.reached, null, { timeout: 180000 });
  assert.equal((await heads()).maps, 4, 'two layers of two heads, drawn in place of the sentence');
  const timing = await page.evaluate(() => {
    const w = window.__induction;
    return { reached: w.reached, frames: w.gaps.length, longestFrameGapMs: Math.max(...w.gaps), medianFrameGapMs: w.gaps.sort((a, b) => a - b)[w.gaps.length >> 1] };
  });
  timing.userAgent = await page.evaluate(() => navigator.userAgent);
  t.diagnostic(`a layer-2 prefix-matching score > 0.5 at step ${timing.reached.step}, ${(timing.reached.ms / 1000).toFixed(2)} s after pressing start; `
    + `${timing.frames} frames meanwhile, longest gap ${timing.longestFrameGapMs.toFixed(0)} ms, median ${timing.medianFrameGapMs.toFixed(0)} ms`);
  await writeFile(`${ARTIFACTS}induction-timing.json`, JSON.stringify(timing, null, 1));
  assert.ok(timing.frames > 0, 'the page kept drawing while the model trained');
  assert.ok(requests.some((u) => u.endsWith('/dist/figures/induction.worker.js')), 'the worker is its own same-origin file');

  await waitStatus(page, /done/);
  await frames(page);
  await el.screenshot({ path: `${SCREENSHOTS}${TAG}-after.png` });
  const done = await summary(el);
  assert.match(done, /^2 layers, step 1000 of 1000, done\. Held-out loss/);
  const milestone = await el.evaluate((e) => e.shadowRoot.querySelector('.milestone').textContent);
  assert.match(milestone, /score was first above 0\.5 at step \d+0 \(the scores are measured every 10 steps\), after \d+\.\d s of training\.$/);
  // the end of training: the disabled start button says so and hands keyboard focus to Reset
  assert.deepEqual(await el.evaluate((e) => [e.run.textContent, e.run.disabled, e.shadowRoot.activeElement?.textContent]), ['Trained', true, 'Reset']);
  // the live region: at once when training starts, when the milestone shows and when it ends; in between every few seconds at most
  await page.waitForFunction(() => window.__spoken.said.at(-1)?.text === document.querySelector('attention-induction').summary);
  const spoken = await page.evaluate(() => window.__spoken);
  const said = spoken.said.map((x) => ({ ...x, t: x.t - spoken.t0 }));
  const trainedFor = said.at(-1).t;
  t.diagnostic(`announced ${said.length} times in ${(trainedFor / 1000).toFixed(1)} s: ${said.map((x) => `${(x.t / 1000).toFixed(1)} s "${x.text.slice(0, 40)}…"`).join('; ')}`);
  assert.match(said[0].text, /, training\./, 'training starting is announced at once');
  assert.ok(said[0].t < 1000, `training starting is announced at once (${said[0].t} ms)`);
  const heard = said.find((x) => x.text.includes(milestone));
  assert.ok(heard && heard.t - (spoken.milestoneAt - spoken.t0) < 1000, 'the milestone is announced at once');
  assert.ok(said.length <= 3 + Math.ceil(trainedFor / 4500), `${said.length} announcements in ${trainedFor} ms: not a human pace`);
  // the claims, as the figure shows them (the Node test checks them on the model)
  const [first, repeats] = done.match(/loss (\d\.\d\d) on the first pass, (\d\.\d\d) on the repeats/).slice(1).map(Number);
  assert.ok(repeats < 0.25 * first, done);

  // a link holds the settings, and says it does not hold the training
  await el.getByRole('button', { name: 'Copy link' }).click();
  await page.waitForFunction(() => /not the training/.test(document.querySelector('attention-induction').shadowRoot.querySelector('.tool-status').textContent));

  // switch off every layer-2 head: the repeat loss comes back
  const switches = el.getByRole('switch');
  assert.equal(await switches.count(), 4);
  const names = await switches.evaluateAll((all) => all.map((s) => s.labels[0].textContent));
  assert.deepEqual(names, ['switch L1H1 off', 'switch L1H2 off', 'switch L2H1 off', 'switch L2H2 off'], 'each switch names its head');
  await el.getByRole('switch', { name: 'switch L2H1 off' }).check();
  await el.getByRole('switch', { name: 'switch L2H2 off' }).check();
  await page.waitForFunction(() => /L2H1, L2H2 off/.test(document.querySelector('attention-induction').shadowRoot.querySelector('.ablation').textContent));
  const ablation = await el.evaluate((e) => e.shadowRoot.querySelector('.ablation').textContent);
  t.diagnostic(ablation);
  const back = Number(ablation.match(/so (\d+)% of what training removed comes back/)[1]);
  assert.ok(back >= 50, ablation);
  await el.screenshot({ path: `${SCREENSHOTS}${TAG}-ablated.png` });
  // keyboard: a switch keeps its focus across the redraw, Space turns it back on
  await switches.nth(3).focus();
  await page.keyboard.press('Space');
  await page.waitForFunction(() => /L2H1 off/.test(document.querySelector('attention-induction').shadowRoot.querySelector('.ablation').textContent));
  assert.equal(await el.evaluate((e) => e.shadowRoot.activeElement?.dataset.head), '1.1');
  assert.deepEqual(problems, []);
  assert.deepEqual(foreign(), []);
  await context.close();
});

test('pause, continue, reset and the layer switch', async () => {
  const { page, problems, context } = await strict.openFigure(TAG);
  const el = await ready(page, TAG);
  await waitStatus(page, /not started$/);
  const button = el.locator('.controls button').first();
  await button.click();
  await waitStatus(page, /Step [1-9]\d* of/);
  await el.getByRole('button', { name: 'Pause' }).click();
  await waitStatus(page, /paused/);
  const paused = await status(el);
  await page.waitForTimeout(300);
  assert.equal(await status(el), paused, 'nothing moves while paused');
  // while paused, heads can be switched off; continuing switches them back on
  await el.getByRole('switch').first().check();
  await page.waitForFunction(() => /L1H1 off/.test(document.querySelector('attention-induction').shadowRoot.querySelector('.ablation').textContent));
  // a map's cells by keyboard too (not on hover only): focus names its first, the arrow keys move, an outline shows which
  const readout = () => el.evaluate((e) => [e.shadowRoot.querySelector('.readout').textContent, e.shadowRoot.querySelector('.head .cursor').hidden]);
  await el.locator('.head canvas').first().focus();
  assert.match((await readout())[0], /^L1H1: query 0 \(.\) \u2192 key 0 \(.\): weight 1\.00$/);
  for (const key of ['ArrowDown', 'ArrowDown', 'ArrowRight']) await page.keyboard.press(key);
  assert.match((await readout())[0], /^L1H1: query 2 \(.\) \u2192 key 1 \(.\): weight [01]\.\d\d$/);
  assert.equal((await readout())[1], false, 'the cell named is outlined');
  await el.getByRole('button', { name: 'Continue training' }).click();
  await waitStatus(page, /training/);
  // (the switches are redrawn with the worker's next view, which may come a frame after the status)
  await page.waitForFunction(() => !document.querySelector('attention-induction').shadowRoot.querySelector('[role="switch"]').checked, null, { timeout: 10_000 });
  await el.getByRole('button', { name: 'Reset' }).click();
  await waitStatus(page, /^Step 0 of 1000 .* ready$/); // a fresh model in the same worker, at step 0
  await el.getByText('1 layer', { exact: true }).click();
  await page.waitForFunction(() => /^1 layer, step 0 of 1000\. Held-out loss/.test(document.querySelector('attention-induction').summary));
  await frames(page);
  assert.equal(await el.locator('.layer').count(), 1);
  assert.equal(await el.getByRole('switch').count(), 2);
  assert.deepEqual(problems, []);
  await context.close();
});

test('on paper before Start, the page\'s picture of it stands in; after a reader\'s change of layers, or Start, the figure prints itself', async () => {
  const path = '/web/embed/induction-with-picture.html';
  const html = figurePage(TAG, { children: '<figure class="picture"><img src="/dist/snapshots/induction.svg" alt="The figure, untrained" width="720" height="976"></figure>' });
  const { page, problems, context } = await strict.open(path, { prepare: (p) => strict.fake(p, path, html) });
  const el = await ready(page, TAG);
  await waitStatus(page, /not started$/);
  const paper = () => el.evaluate((e) => e.hasAttribute('data-print-picture'));
  assert.equal(await paper(), true, 'not started: its picture says more');
  await page.emulateMedia({ media: 'print' });
  assert.deepEqual(await el.evaluate((e) => [e.querySelector('img').getBoundingClientRect().height > 100, getComputedStyle(e.shadowRoot.querySelector('[role=figure]')).display]),
    [true, 'none'], 'printed: the picture, not the figure');
  await page.emulateMedia({ media: 'screen' });
  assert.equal(await el.evaluate((e) => e.querySelector('img').getBoundingClientRect().height), 0, 'on screen: the figure, not the picture');
  // the page's picture is of its attributes' model: one layer is another model
  await el.getByText('1 layer', { exact: true }).click();
  await frames(page);
  assert.equal(await paper(), false);
  await el.getByText('2 layers', { exact: true }).click();
  await frames(page);
  assert.equal(await paper(), true);
  await el.locator('.controls button').first().click();
  await waitStatus(page, /Step [1-9]\d* of/);
  assert.equal(await paper(), false, 'training: the figure prints where it stands');
  assert.deepEqual(problems, []);
  await context.close();
});

test('whole-number attributes are rounded: seed="1.5", steps="120.7" train 121 steps with seed 2', async () => {
  const { page, problems, context } = await strict.openFigure(TAG);
  const el = await ready(page, TAG);
  await el.evaluate((e) => { e.setAttribute('seed', '1.5'); e.setAttribute('steps', '120.7'); });
  await waitStatus(page, /^Step 0 of 121 .* not started$/);
  assert.deepEqual(await el.evaluate((e) => [e.seed, e.steps]), [2, 121]);
  await el.getByRole('button', { name: 'Start training' }).click();
  await waitStatus(page, /^Step 121 of 121 .* done$/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('after training at 360 px and in the dark theme: fits the width', async () => {
  const { page, problems, context } = await strict.openFigure(TAG, { width: 360, height: 740, colorScheme: 'dark' });
  const el = await ready(page, TAG);
  await el.evaluate((e) => e.setAttribute('steps', '200'));
  await waitStatus(page, /^Step 0 of 200/);
  await el.locator('.controls button').first().click();
  await waitStatus(page, /done/);
  await frames(page);
  const width = await el.evaluate((e) => [e.getBoundingClientRect().width, e.shadowRoot.firstElementChild.scrollWidth]);
  assert.ok(width.every((w) => w <= 360), `${width}`);
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= 360);
  await el.screenshot({ path: `${SCREENSHOTS}${TAG}-phone-dark-trained.png` });
  assert.deepEqual(problems, []);
  await context.close();
});
