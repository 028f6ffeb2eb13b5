// attention-causal-mask in headless Chromium, on a page of its own with the
// page's own example (a list of tokens in a data-example child): it draws
// the page's tokens and the kernels' weights for them; a list that will not
// do is said above the figure, which keeps its own; hostile tokens stay
// text and do not break the layout at 360 px. Screenshots:
// tests/artifacts/screenshots/example-causal-mask-hostile-phone.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start } from '../../browser/harness.js';
import { openExample, addExample, exampleView, expectFits360, printed } from '../../browser/examples.js';
import { engine } from '../../kit/engine.js';
import { causalModel, TOKENS } from '../../../web/figures/causal-mask/causal-mask.model.js';

const TAG = 'attention-causal-mask';

let server;
before(async () => { server = await start(); });
after(async () => { await server?.close(); });
const attn = await engine();

test("causal-mask draws the page's tokens and the kernels' weights for them; a bad list is said and the figure keeps its own", async () => {
  const tokens = ['<s>', 'I', 'think', 'therefore', 'I', 'am', '<pad>'];
  const { page, problems, context } = await openExample(server, TAG, tokens, { attrs: { preset: 'causal+padding' } });
  let s = await exampleView(page, 1);
  assert.deepEqual(s.errors, []);
  assert.deepEqual(s.tokens, tokens);
  assert.deepEqual(s.labels, [...tokens, ...tokens]);
  // the cells above: causal + padding over the 7 tokens, written out by hand
  const cells = Array.from({ length: 49 }, (_, k) => (k % 7 > Math.floor(k / 7) || k % 7 === 6 ? '1' : '0')).join('');
  assert.deepEqual(s.values, printed(causalModel(attn, { tokens, cells }).weights));
  assert.match(s.summary, /^Mask causal \+ padding, 7 tokens\. The newest token, <pad>, attends most to /);

  await addExample(page, TAG, ['only']);
  s = await exampleView(page, 1);
  assert.deepEqual(s.errors, ['The example on this page could not be used (it must hold 2 to 10 tokens, it has 1); the figure shows its own.']);
  assert.deepEqual(s.tokens, TOKENS);
  assert.deepEqual(s.values, printed(causalModel(attn).weights));

  await addExample(page, TAG, ['a', 'b'], { lang: 'zh-CN', step: '1' });
  s = await exampleView(page, 1);
  assert.deepEqual(s.errors, []);
  assert.deepEqual(s.values, ['1.00'], 'step 1 of the page\'s two tokens');
  assert.deepEqual(problems, []);
  await context.close();
});

test('hostile words stay text and fit at 360 px; a label too long is refused with a clear message', async () => {
  const { page, problems, context } = await openExample(server, TAG, ['<img src=x>', '<b>b</b>', '$x$', 'Kraftfahrzeugbau'], { width: 360 });
  const s = await exampleView(page, 1);
  assert.deepEqual(s.errors, []);
  assert.deepEqual(s.tokens, ['<img src=x>', '<b>b</b>', '$x$', 'Kraftfahrzeugbau']);
  assert.equal(s.markup, 0);
  await expectFits360(page, 'example-causal-mask-hostile-phone');
  await addExample(page, TAG, ['a', 'Kraftfahrzeugbaus']);
  assert.deepEqual((await exampleView(page, 1)).errors, ['The example on this page could not be used (item [1] is longer than 16 characters); the figure shows its own.']);
  assert.equal(await page.evaluate(() => window.pwned), undefined);
  assert.deepEqual(problems, []);
  await context.close();
});
