// The embedding promise: all figures work on a page served with the strict
// Content-Security-Policy (header from the server, plus the page's own meta).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, ready, summary, SCREENSHOTS, ALL_FIGURES, measured } from './harness.js';

let server;
before(async () => { server = await start({ csp: true }); });
after(async () => { await server?.close(); });

test('every figure works under the strict CSP', async () => {
  const { page, problems, foreign, context } = await server.open('/web/embed/csp-test.html');
  const csp = await page.evaluate(async () => (await fetch(location.href)).headers.get('content-security-policy'));
  assert.match(csp, /script-src 'self' 'wasm-unsafe-eval'/);
  for (const tag of ALL_FIGURES) {
    const el = await ready(page, tag).catch((err) => { throw new Error(`${tag}: ${err.message}; ${problems}`); });
    if (await el.evaluate((e) => 'sweep' in e)) await measured(page, tag); // (its summary is its sweep's)
    assert.ok((await summary(el)).length > 0, tag);
  }
  await page.screenshot({ path: `${SCREENSHOTS}csp-test-page.png` });
  assert.deepEqual(problems, [], 'no CSP violations or other console errors');
  assert.deepEqual(foreign(), []);
  await context.close();
});

test('the article page and the plain embedding example work under the strict CSP', async () => {
  for (const path of ['/web/index.html', '/web/embed/example.html']) {
    const { page, problems, context } = await server.open(path);
    const tags = await page.evaluate(() => [...new Set([...document.querySelectorAll('*')].map((e) => e.localName).filter((n) => n.startsWith('attention-')))]);
    assert.ok(tags.length > 0, path);
    for (const tag of tags) await ready(page, tag);
    assert.deepEqual(problems, [], path);
    await context.close();
  }
});
