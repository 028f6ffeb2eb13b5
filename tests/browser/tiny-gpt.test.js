// attention-tiny-gpt in headless Chromium under the strict CSP: the model
// trains in its Web Worker (a same-origin file) on the article's text; the
// loss curve, the samples, the three decodings and the attention on typed
// text are drawn; the claims show (held-out loss below the bigram line;
// beam search's log-probability at least greedy's); typing and picking a
// character update the attention; 360 px in the dark theme fits. Screenshots
// before, during and after training, and at 360 px dark. The training time
// is reported, never asserted.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, ready, summary, frames, SCREENSHOTS } from './harness.js';

const TAG = 'attention-tiny-gpt';
let strict;
before(async () => { strict = await start({ csp: true }); });
after(async () => { await strict?.close(); });

const waitStatus = (page, re, timeout = 240000) => page.waitForFunction(
  (src) => new RegExp(src).test(document.querySelector('attention-tiny-gpt').shadowRoot.querySelector('.status').textContent),
  re.source, { timeout });
const logProbs = (el) => el.evaluate((e) => [...e.shadowRoot.querySelectorAll('.decoding .lp')].map((d) => Number(d.textContent.match(/log-probability (-?[\d.]+)/)[1])));

test('trains in its worker under the strict CSP and writes: loss below the bigram line, beam >= greedy, attention on typed text', async (t) => {
  const { page, problems, foreign, requests, context } = await strict.open('/web/index.html');
  const el = await ready(page, TAG);
  await waitStatus(page, /ready/);
  await page.waitForFunction(() => document.querySelector('attention-tiny-gpt').shadowRoot.querySelectorAll('.decoding').length === 3);
  await el.screenshot({ path: `${SCREENSHOTS}${TAG}-before.png` });
  assert.match(await summary(el), /^Step 0 of 600\. Training loss 3\.\d\d, held-out loss 3\.\d\d nats per character; the bigram model's held-out loss is 2\.\d\d\./);
  const t0 = Date.now();
  await el.getByRole('button', { name: 'Start training' }).click();
  await waitStatus(page, /Step [1-9]\d\d of 600/);
  await el.screenshot({ path: `${SCREENSHOTS}${TAG}-during.png` });
  await waitStatus(page, /done/);
  t.diagnostic(`600 steps trained in ${((Date.now() - t0) / 1000).toFixed(1)} s (wall clock, shared machine); ${await el.evaluate((e) => e.shadowRoot.querySelector('.status').textContent)}`);
  assert.ok(requests.some((u) => u.endsWith('/dist/tiny-gpt.worker.js')), 'the worker is its own same-origin file');
  const done = await summary(el);
  const [held, bigram] = done.match(/held-out loss (\d\.\d\d) nats per character; the bigram model's held-out loss is (\d\.\d\d)/).slice(1).map(Number);
  assert.ok(held < bigram - 0.3, done);
  await page.waitForFunction(() => /step 600/.test(document.querySelector('attention-tiny-gpt').shadowRoot.querySelector('.samples').textContent));
  await page.waitForFunction(() => !/Written by the model at step/.test(document.querySelector('attention-tiny-gpt').shadowRoot.querySelector('.decodings').textContent));
  const [greedy, sample, beam] = await logProbs(el);
  assert.ok(beam >= greedy && sample < greedy, `greedy ${greedy}, sample ${sample}, beam ${beam}`);
  await frames(page);
  await el.screenshot({ path: `${SCREENSHOTS}${TAG}-after.png` });

  // a new prompt, written with the keyboard
  const prompt = el.getByLabel('prompt');
  await prompt.fill('the softmax ');
  await prompt.press('Enter');
  await page.waitForFunction(() => document.querySelector('attention-tiny-gpt').shadowRoot.querySelector('.decoding .prompt').textContent === 'the\u00a0softmax\u00a0');
  // typed text: one character button each; picking one moves the query
  await el.getByLabel('text to read').fill('heads look back');
  await page.waitForFunction(() => document.querySelector('attention-tiny-gpt').shadowRoot.querySelectorAll('.chars button').length === 15);
  await el.getByRole('group', { name: 'Layer', exact: true }).getByRole('radio', { name: '2' }).check(); // layer 2
  await el.locator('.chars button').nth(6).focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => /reading \u201cl\u201d \(character 7\)/.test(document.querySelector('attention-tiny-gpt').shadowRoot.querySelector('.readout').textContent));
  assert.match(await el.evaluate((e) => e.shadowRoot.querySelector('.readout').textContent), /^Layer 2, head 1: reading/);
  assert.deepEqual(problems, []);
  assert.deepEqual(foreign(), []);
  await context.close();
});

test('at 360 px in the dark theme: fits the width, trains and writes', async () => {
  const { page, problems, context } = await strict.open('/web/index.html', { width: 360, height: 740, colorScheme: 'dark' });
  const el = await ready(page, TAG);
  await el.evaluate((e) => e.setAttribute('steps', '200'));
  await waitStatus(page, /^Step 0 of 200/);
  await el.getByRole('button', { name: 'Start training' }).click();
  await waitStatus(page, /done/);
  await page.waitForFunction(() => !/Written by the model at step/.test(document.querySelector('attention-tiny-gpt').shadowRoot.querySelector('.decodings').textContent));
  await frames(page);
  const width = await el.evaluate((e) => [e.getBoundingClientRect().width, e.shadowRoot.firstElementChild.scrollWidth]);
  assert.ok(width.every((w) => w <= 360), `${width}`);
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= 360);
  await el.screenshot({ path: `${SCREENSHOTS}${TAG}-phone-dark-trained.png` });
  assert.deepEqual(problems, []);
  await context.close();
});
