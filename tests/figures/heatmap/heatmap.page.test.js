// attention-heatmap in headless Chromium, on a page of its own: tokens a
// reader supplies (the data property) are shown as text only, in full in
// their tooltip and cut to 24 characters on the page; malformed JSON pasted
// by the reader, weights of the wrong shape, oversized input and a src that
// is not there each give a message in the figure; a same-origin src is
// loaded. Screenshots: tests/artifacts/screenshots/attention-heatmap-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, ready, frames, SCREENSHOTS } from '../../browser/harness.js';

const TAG = 'attention-heatmap';
const XSS = '<img src=x onerror=alert(1)>';

let server;
before(async () => { server = await start(); });
after(async () => { await server?.close(); });

test('heatmap: reader-supplied tokens are text only; malformed, oversized and missing data give a message', async () => {
  const json = { tokens: ['Hello', XSS, 'world'], attention: [[[[1, 0, 0], [0.5, 0.5, 0], [0.2, 0.3, 0.5]]]] };
  const { page, problems, context } = await server.openFigure(TAG, {
    prepare: async (p) => {
      await p.addInitScript(() => { window.alert = () => { window.__alerted = true; }; });
      await p.route('**/my-model.json', (route) => route.fulfill({ json }));
    },
  });
  const el = await ready(page, TAG);
  await el.evaluate((e, data) => { e.data = data; }, json);
  await frames(page);
  const seen = await el.evaluate((e) => ({
    imgs: e.shadowRoot.querySelectorAll('img').length,
    texts: [...e.shadowRoot.querySelectorAll('svg.headview text, svg.headview title')].map((t) => t.firstChild.textContent),
    source: e.shadowRoot.querySelector('.source').textContent,
  }));
  assert.equal(seen.imgs, 0, 'no element was made from a token');
  assert.ok(seen.texts.includes(XSS), 'the token is shown literally (in full in its tooltip)');
  assert.ok(seen.texts.includes(`${XSS.slice(0, 23)}\u2026`), 'and cut to 24 characters on the page');
  assert.match(seen.source, /3 tokens, 1 layer/);
  await el.screenshot({ path: `${SCREENSHOTS}attention-heatmap-user-json.png` });
  // malformed JSON pasted by the reader
  await el.locator('summary').click();
  await el.locator('textarea').fill('{"tokens": ["a", "b"], "attention": [[1, 0], [0, ');
  await el.getByRole('button', { name: 'Show', exact: true }).click();
  await frames(page);
  assert.match(await el.locator('.msg[role=alert]').innerText(), /Could not show pasted JSON: This is not valid JSON/);
  // wrong shape, then oversized, through the property
  await el.evaluate((e) => { e.data = { tokens: ['a', 'b'], attention: [[1, 0], [0.5]] }; });
  await frames(page);
  assert.match(await el.locator('.msg[role=alert]').innerText(), /attention\[0\]\[0\]\[1\] must have 2 values/);
  await el.evaluate((e) => { e.data = ' '.repeat(5_000_001); });
  await frames(page);
  assert.match(await el.locator('.msg[role=alert]').innerText(), /reads at most 5,000,000/);
  await el.screenshot({ path: `${SCREENSHOTS}attention-heatmap-error.png` });
  // src: a same-origin file, then one that is not there
  await el.evaluate((e) => e.setAttribute('src', 'my-model.json'));
  await page.waitForFunction(() => /my-model\.json: 3 tokens/.test(document.querySelector('attention-heatmap').shadowRoot.querySelector('.source').textContent));
  await el.evaluate((e) => e.setAttribute('src', 'missing.json'));
  await page.waitForFunction(() => /Could not load missing\.json: HTTP 404/.test(document.querySelector('attention-heatmap').shadowRoot.textContent));
  assert.equal(await page.evaluate(() => window.__alerted ?? false), false);
  assert.deepEqual(problems.filter((p) => !/missing\.json|404/.test(p)), [], 'only the expected 404');
  await context.close();
});
