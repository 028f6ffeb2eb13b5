// attention-tiny-gpt in headless Chromium, on a page of its own under the
// strict CSP: the model trains in its Web Worker (a same-origin file) on the
// article's text; the loss curve, the samples, the three decodings and the attention on typed
// text are drawn; the claims show (held-out loss below the bigram line;
// beam search's log-probability at least greedy's from the figure's prompt;
// the log-probability per character is the total's over the length, with
// its sign); typing and picking a character update the attention; the
// characters are one tab stop with arrow keys, and print in their weights'
// colours; what the model cannot read
// is said (prompt and text), and an empty text clears the map; it says
// "loading" until its worker has the model; "Copy link" after training says
// the link holds the settings, not the training; 360 px in the dark theme
// fits, and the text it writes breaks only between words. Screenshots
// before, during and after training, and at 360 px dark. The training time
// is reported, never asserted.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, ready, summary, frames, SCREENSHOTS } from '../../browser/harness.js';

const TAG = 'attention-tiny-gpt';
let strict;
before(async () => { strict = await start({ csp: true }); });
after(async () => { await strict?.close(); });

const waitStatus = (page, re, timeout = 240000) => page.waitForFunction(
  (src) => new RegExp(src).test(document.querySelector('attention-tiny-gpt').shadowRoot.querySelector('.status').textContent),
  re.source, { timeout });
const logProbs = (el) => el.evaluate((e) => [...e.shadowRoot.querySelectorAll('.decoding .lp')].map((d) => d.textContent.match(/^log-probability (-?[\d.]+) nats \((-?[\d.]+) per character\)$/).slice(1).map(Number)));
const shadowText = (page, selector) => page.evaluate((sel) => document.querySelector('attention-tiny-gpt').shadowRoot.querySelector(sel).textContent, selector);

// Runs in the page: the words of the texts the model wrote that a line break cuts in two, though they fit a line.
function brokenWords(e) {
  const out = [];
  const range = document.createRange();
  for (const p of e.shadowRoot.querySelectorAll('.mono')) {
    const walker = document.createTreeWalker(p, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const line = node.parentElement.getBoundingClientRect().width;
      for (const m of node.textContent.matchAll(/\S+/g)) { // (a no-break space joins no words)
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const rects = [...range.getClientRects()].filter((r) => r.width > 0);
        const wide = rects.reduce((sum, r) => sum + r.width, 0);
        if (new Set(rects.map((r) => Math.round(r.top))).size > 1 && wide < line) out.push(m[0]);
      }
    }
  }
  return out;
}

test('says it is loading until its worker has the model, then ready', async () => {
  let release;
  const gate = new Promise((r) => { release = r; });
  const { page, problems, context } = await strict.openFigure(TAG, {
    prepare: (p) => p.route('**/attention.simd.wasm', async (route) => { await gate; await route.continue(); }),
  });
  const el = await ready(page, TAG);
  await waitStatus(page, /not started$/);
  // the first question to the model (Write) starts its worker, which waits for the page's compiled engine
  await el.getByRole('button', { name: 'Write' }).click();
  await page.waitForTimeout(300);
  assert.match(await shadowText(page, '.status'), /loading the model/);
  assert.match(await summary(el), /Loading the model in a background thread\./);
  assert.equal(await el.evaluate((e) => e.shadowRoot.querySelector('.status').closest('[aria-live]')), null, 'the status line is not a live region');
  release();
  await waitStatus(page, /ready/);
  assert.doesNotMatch(await summary(el), /Loading/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('trains in its worker under the strict CSP and writes: loss below the bigram line, beam >= greedy, attention on typed text', async (t) => {
  const { page, problems, foreign, requests, context } = await strict.openFigure(TAG);
  const el = await ready(page, TAG);
  await waitStatus(page, /not started$/);
  assert.match(await summary(el), /^Step 0 of 600, not started: Start trains the model in this page\./);
  await el.getByRole('button', { name: 'Write' }).click(); // the untrained model's writing
  await waitStatus(page, / ready/);
  await page.waitForFunction(() => document.querySelector('attention-tiny-gpt').shadowRoot.querySelectorAll('.decoding').length === 3);
  await el.screenshot({ path: `${SCREENSHOTS}${TAG}-before.png` });
  assert.match(await summary(el), /^Step 0 of 600\. Training loss 3\.\d\d, held-out loss 3\.\d\d nats per character; the bigram model's held-out loss is 2\.\d\d\./);
  const t0 = Date.now();
  await el.getByRole('button', { name: 'Start training' }).click();
  await waitStatus(page, /Step [1-9]\d\d of 600/);
  await el.screenshot({ path: `${SCREENSHOTS}${TAG}-during.png` });
  await waitStatus(page, /done/);
  t.diagnostic(`600 steps trained in ${((Date.now() - t0) / 1000).toFixed(1)} s (wall clock, shared machine); ${await el.evaluate((e) => e.shadowRoot.querySelector('.status').textContent)}`);
  assert.ok(requests.some((u) => u.endsWith('/dist/figures/tiny-gpt.worker.js')), 'the worker is its own same-origin file');
  const done = await summary(el);
  const [held, bigram] = done.match(/held-out loss (\d\.\d\d) nats per character; the bigram model's held-out loss is (\d\.\d\d)/).slice(1).map(Number);
  assert.ok(held < bigram - 0.3, done);
  await page.waitForFunction(() => /step 600/.test(document.querySelector('attention-tiny-gpt').shadowRoot.querySelector('.samples').textContent));
  await page.waitForFunction(() => !/Written by the model at step/.test(document.querySelector('attention-tiny-gpt').shadowRoot.querySelector('.decodings').textContent));
  const [[greedy, greedyPer], [sample], [beam]] = await logProbs(el);
  assert.ok(beam >= greedy && sample < greedy, `greedy ${greedy}, sample ${sample}, beam ${beam}`);
  // per character: the same sign as the total, and the total over the 80 characters written
  assert.ok(greedyPer < 0 && Math.abs(greedyPer - greedy / 80) < 0.006, `${greedy} nats, ${greedyPer} per character`);
  await frames(page);
  await el.screenshot({ path: `${SCREENSHOTS}${TAG}-after.png` });
  await el.getByRole('button', { name: 'Copy link' }).click();
  await page.waitForFunction(() => /not the training/.test(document.querySelector('attention-tiny-gpt').shadowRoot.querySelector('.tool-status').textContent));

  // a new prompt, written with the keyboard; one the model cannot read is said, not silently replaced
  const prompt = el.getByLabel('prompt');
  await prompt.fill('the softmax ');
  await prompt.press('Enter');
  await page.waitForFunction(() => document.querySelector('attention-tiny-gpt').shadowRoot.querySelector('.decoding .prompt').textContent === 'the softmax ');
  assert.equal(await el.evaluate((e) => e.prompt), 'the softmax ', 'the prompt is the state a link holds');
  await prompt.fill('Attention, 注意力 😀');
  await prompt.press('Enter');
  await page.waitForFunction(() => document.querySelector('attention-tiny-gpt').shadowRoot.querySelector('.decoding .prompt').textContent === 'attention,  ');
  assert.equal(await el.evaluate((e) => e.shadowRoot.querySelector('.write + .note').textContent), 'The model does not know 注 意 力 😀; it reads the prompt without them.');
  await prompt.fill('注意力');
  await prompt.press('Enter');
  await page.waitForFunction(() => /starts from a space/.test(document.querySelector('attention-tiny-gpt').shadowRoot.querySelector('.write + .note').textContent));
  assert.equal(await shadowText(page, '.decoding .prompt'), ' ');

  // typed text: one character button each; picking one moves the query
  const text = el.getByLabel('text to read');
  await text.fill('heads look back');
  await page.waitForFunction(() => document.querySelector('attention-tiny-gpt').shadowRoot.querySelectorAll('.chars button').length === 15);
  await el.getByRole('group', { name: 'Layer', exact: true }).getByRole('radio', { name: '2' }).check(); // layer 2
  // one tab stop for the characters: Tab from the head choice lands on the query, arrow keys move it
  assert.equal(await el.locator('.chars button[tabindex="0"]').count(), 1);
  await el.locator('.chars button[tabindex="0"]').focus();
  await page.keyboard.press('Home');
  for (let k = 0; k < 6; k++) await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => /reading \u201cl\u201d \(character 7\)/.test(document.querySelector('attention-tiny-gpt').shadowRoot.querySelector('.readout').textContent));
  assert.deepEqual(await el.evaluate((e) => [e.at, e.shadowRoot.activeElement.textContent, e.shadowRoot.activeElement.getAttribute('aria-checked')]), [7, 'l', 'true']);
  assert.match(await shadowText(page, '.readout'), /^Layer 2, head 1: reading/);
  await page.keyboard.press('Shift+Tab');
  assert.equal(await el.evaluate((e) => e.shadowRoot.activeElement.type), 'radio', 'Shift+Tab leaves the characters at once: one tab stop');
  // on paper the characters print in their weights' colours (data, not controls); the text box does not
  await page.emulateMedia({ media: 'print' });
  assert.deepEqual(await el.evaluate((e) => {
    const chars = [...e.shadowRoot.querySelectorAll('.chars button')];
    return [chars.filter((b) => b.checkVisibility()).length, new Set(chars.map((b) => getComputedStyle(b.firstChild).backgroundColor)).size > 1,
      e.shadowRoot.querySelector('input[data-prop=text]').checkVisibility()];
  }), [15, true, false]);
  await page.emulateMedia({ media: 'screen' });

  // what the model cannot read in the text is said; nothing to read clears the map
  await text.fill('Heads 看 back');
  await page.waitForFunction(() => document.querySelector('attention-tiny-gpt').shadowRoot.querySelectorAll('.chars button').length === 11);
  assert.match(await shadowText(page, '.attend > .note'), /^It skips 看, which it does not know\.$/);
  await text.fill('中文 😀');
  await page.waitForFunction(() => document.querySelector('attention-tiny-gpt').shadowRoot.querySelectorAll('.chars button').length === 1);
  await text.fill('中文😀');
  await page.waitForFunction(() => document.querySelector('attention-tiny-gpt').shadowRoot.querySelectorAll('.chars button').length === 0);
  assert.match(await shadowText(page, '.attend > .note'), /and none of these\. It skips 中 文 😀/);
  assert.deepEqual(await el.evaluate((e) => [e.shadowRoot.querySelector('.readout').textContent, e.shadowRoot.querySelector('canvas.matrix').hidden]), ['', true]);
  await text.fill('');
  await page.waitForFunction(() => /^Type some text/.test(document.querySelector('attention-tiny-gpt').shadowRoot.querySelector('.attend > .note').textContent));
  assert.deepEqual(problems, []);
  assert.deepEqual(foreign(), []);
  await context.close();
});

test('at 360 px in the dark theme: fits the width, trains and writes', async () => {
  const { page, problems, context } = await strict.openFigure(TAG, { width: 360, height: 740, colorScheme: 'dark' });
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
  assert.deepEqual(await el.evaluate(brokenWords), [], 'a line of the text it writes breaks inside a word');
  assert.deepEqual(problems, []);
  await context.close();
});
