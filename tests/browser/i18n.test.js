// The Chinese UI and the page's own strings, in Chromium: web/embed/zh.html
// (lang="zh-CN") at 360 px, light and dark: every figure starts, fits, no
// text overlaps or is cut off, and each figure speaks
// Chinese (its title, its summary). Then, on one figure: a page's
// override replaces a string in one language and stays text even when it
// looks like markup; bad JSON is said inside the figure; a change of the
// element's lang rebuilds it in the other language. Screenshots go to
// tests/artifacts/screenshots/zh-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, openAll, frames, layoutProblems, addFigure, assertSameView, SCREENSHOTS, ALL_FIGURES } from './harness.js';

let server;
before(async () => { server = await start(); });
after(async () => { await server?.close(); });

const CJK = /[\u3400-\u9fff]/;

for (const colorScheme of ['light', 'dark']) {
  test(`zh.html at 360 px, ${colorScheme}: every figure fits, and the translated ones speak Chinese`, async () => {
    const { page, problems, context } = await openAll(server, '/web/embed/zh.html', { width: 360, colorScheme });
    const tags = await page.evaluate(() => [...document.querySelectorAll('main > *')].map((e) => e.localName).filter((t) => t.startsWith('attention-')));
    assert.equal(tags.length, 19);
    await page.setViewportSize({ width: 360, height: 30000 });
    await frames(page);
    const found = [];
    for (const tag of tags) {
      const el = page.locator(tag);
      assert.equal(await el.getAttribute('data-error'), null, `${tag} started`);
      const box = await el.evaluate((e) => ({ width: e.getBoundingClientRect().width, inner: e.shadowRoot.firstElementChild.scrollWidth }));
      assert.ok(box.width <= 360 && box.inner <= 360, `${tag} is ${box.width}px wide, its content ${box.inner}px`);
      found.push(...layoutProblems(await el.evaluate((e) => window.__fig.textBoxes(e))).map((p) => `${tag}: ${p}`));
      const { label, summary } = await el.evaluate((e) => ({ label: e.shadowRoot.querySelector('[role=figure]').getAttribute('aria-label'), summary: e.summary }));
      assert.match(label, CJK, `${tag}'s name is Chinese: ${label}`);
      if (summary) assert.match(summary, CJK, `${tag}'s summary is Chinese: ${summary}`);
      await el.screenshot({ path: `${SCREENSHOTS}zh-${tag}-phone${colorScheme === 'dark' ? '-dark' : ''}.png` });
    }
    assert.deepEqual(found, []);
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= 360, 'the page does not scroll sideways');
    assert.deepEqual(problems, []);
    await context.close();
  });
}

test("a page's strings override the table, stay text, and bad JSON is said; lang switches rebuild", async () => {
  const { page, problems, context } = await server.open('/web/embed/example.html');
  const hostile = '<img src=x onerror="window.pwned=1">{name}';
  const read = () => page.evaluate(() => {
    const root = document.querySelector('#mine').shadowRoot;
    return { title: root.querySelector('.title')?.textContent, errors: [...root.querySelectorAll('.example-error')].map((p) => p.textContent), imgs: root.querySelectorAll('img').length, lang: root.querySelector('[role=figure]').getAttribute('lang') };
  });
  const add = (json, lang) => addFigure(page, 'attention-basic', { attrs: { lang }, json: { strings: json } });

  await add(JSON.stringify({ zh: { title: hostile }, pixel: 'Colour' }), 'zh-CN');
  let seen = await read();
  assert.equal(seen.title, hostile, 'the override shows as text, {name} unfilled');
  assert.equal(seen.imgs, 0);
  assert.equal(seen.lang, 'zh-CN');
  assert.equal(await page.evaluate(() => window.pwned), undefined);
  assert.match(await page.evaluate(() => document.querySelector('#mine').shadowRoot.querySelector('legend').textContent), /^Colour$/, 'a top-level override is for every language');

  await page.evaluate(() => document.querySelector('#mine').setAttribute('lang', 'en'));
  await frames(page);
  seen = await read();
  assert.equal(seen.title, 'Attention with no parameters: four pixels weigh each other', 'the zh override does not apply in English');
  assert.equal(seen.lang, 'en');

  await add('{"title": ', 'en');
  seen = await read();
  assert.equal(seen.errors.length, 1);
  assert.match(seen.errors[0], /^The strings on this page could not be used \(they are not valid JSON: /);
  assert.equal(seen.title, 'Attention with no parameters: four pixels weigh each other');
  await add('{"title": ', 'zh');
  assert.match((await read()).errors[0], /^本页提供的文字无法使用/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('every figure switched to Chinese and back draws as it did: no part of it goes stale', async () => {
  const { page, problems, context } = await openAll(server, '/web/index.html');
  for (const tag of ALL_FIGURES.filter((t) => t !== 'attention-cost')) { // (cost measures afresh: i18n-workers.test.js)
    const el = page.locator(tag);
    const snap = () => el.evaluate(async (e) => { e.shadowRoot.activeElement?.blur(); return window.__fig.snapshot(e); });
    const before = await snap();
    for (const lang of ['zh-CN', 'en']) {
      await el.evaluate((e, l) => e.setAttribute('lang', l), lang);
      await frames(page);
    }
    assertSameView(await snap(), before, `${tag}: after a switch to Chinese and back`);
  }
  assert.deepEqual(problems, []);
  await context.close();
});
