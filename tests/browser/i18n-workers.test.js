// The figures that measure or train in a Web Worker (cost, efficient,
// induction, tiny-gpt) speak Chinese on a zh page, run there without any
// English text, and a change of the element's lang rewords them (the
// measuring ones without losing what they measured so far).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, addFigure, switchLanguage } from './harness.js';

let server;
before(async () => { server = await start(); });
after(async () => { await server?.close(); });

const CJK = /[\u3400-\u9fff]/;

/** Put `tag` with `attrs` at the top of the page, in Chinese, and wait until it starts. */
const add = (page, tag, attrs) => addFigure(page, tag, { attrs: { lang: 'zh-CN', ...attrs } });
const text = (page, tag, selector) => page.evaluate(([t, s]) => document.querySelector(t).shadowRoot.querySelector(s)?.textContent ?? '', [tag, selector]);
// the sizes measured (a sweep's table lists every size it will measure, empty until measured)
const rows = (page, tag) => page.evaluate((t) => [...document.querySelector(t).shadowRoot.querySelectorAll('tbody tr')].filter((tr) => !tr.closest('[data-kept]') && tr.cells[1].textContent !== '').length, tag);
const toEnglish = (page, tag) => switchLanguage(page.locator(tag), 'en');

test('cost and efficient: the sweep runs and is said in Chinese; switched to English, it keeps its results', async () => {
  const { page, problems, context } = await server.open('/web/embed/example.html');
  for (const [tag, attrs] of [['attention-cost', { n: '1024', budget: '5' }], ['attention-efficient', { n: '2048', budget: '5' }]]) {
    await add(page, tag, attrs);
    await page.waitForFunction((t) => /完成|快速测到|失败|停止/.test(document.querySelector(t).shadowRoot.querySelector('.status').textContent), tag, { timeout: 300000 });
    const status = await text(page, tag, '.status');
    assert.match(status, /^完成，用时/, `${tag}: ${status}`);
    const measured = await rows(page, tag);
    assert.ok(measured >= 3, `${tag} measured ${measured} sizes`);
    assert.match(await text(page, tag, 'button'), /^测量到 N = \d+$/);
    assert.match(await page.evaluate((t) => document.querySelector(t).summary, tag), CJK);
    await toEnglish(page, tag);
    assert.match(await text(page, tag, '.status'), /^Done in /, `${tag} rewords its status`);
    assert.equal(await rows(page, tag), measured, `${tag} keeps what it measured`);
    assert.match(await text(page, tag, '.title'), /^[A-Z][a-z]/);
  }
  assert.deepEqual(problems, []);
  await context.close();
});

test('induction and tiny-gpt: the status and the readout speak Chinese; switched to English, they speak English and the text read stays', async () => {
  const { page, problems, context } = await server.open('/web/embed/example.html');
  await add(page, 'attention-induction', { steps: '200' });
  await page.waitForFunction(() => /未开始/.test(document.querySelector('attention-induction').shadowRoot.querySelector('.status').textContent), null, { timeout: 120000 });
  assert.match(await text(page, 'attention-induction', '.status'), /^第 0\/200 步 · 已训练 0\.0 s · 未开始$/);
  // (a change of lang rewords the figure; its worker and run go on)
  await toEnglish(page, 'attention-induction');
  await page.waitForFunction(() => /^Step 0 of 200 · 0\.0 s of training · not started$/.test(document.querySelector('attention-induction').shadowRoot.querySelector('.status').textContent), null, { timeout: 120000 });

  await add(page, 'attention-tiny-gpt', { steps: '200' });
  const readout = () => text(page, 'attention-tiny-gpt', '.readout');
  // its model loads when the reader first asks it something: Write
  await page.locator('attention-tiny-gpt').getByRole('button', { name: '生成' }).click();
  await page.waitForFunction(() => /^第 1 层第 1 个头：读到/.test(document.querySelector('attention-tiny-gpt').shadowRoot.querySelector('.readout').textContent), null, { timeout: 120000 });
  const read = await page.evaluate(() => document.querySelector('attention-tiny-gpt').shadowRoot.querySelector('input[type=text]:not([maxlength="60"])').value);
  assert.ok(read.length >= 30, `the worker filled in the article's sentence: ${read}`);
  await toEnglish(page, 'attention-tiny-gpt');
  await page.waitForFunction(() => /^Layer 1, head 1: reading /.test(document.querySelector('attention-tiny-gpt').shadowRoot.querySelector('.readout').textContent), null, { timeout: 120000 });
  assert.match(await readout(), /^Layer 1, head 1: reading /);
  assert.equal(await page.evaluate(() => document.querySelector('attention-tiny-gpt').shadowRoot.querySelector('input[type=text]:not([maxlength="60"])').value), read);
  assert.deepEqual(problems, []);
  await context.close();
});
