// The Chinese UI and the page's own strings, in Chromium: web/embed/zh.html
// (lang="zh-CN") at 360 px, light and dark: every figure starts, fits, no
// text overlaps or is cut off, and each figure speaks
// Chinese (its title, its summary). Then, on one figure: a page's
// override replaces a string in one language and stays text even when it
// looks like markup; bad JSON is said inside the figure; a change of the
// element's lang rebuilds it in the other language. A one-figure page loads
// the words of its language only; a change of lang loads the other's, and a
// table that cannot load is said inside the figure. Screenshots go to
// tests/artifacts/screenshots/zh-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, openAll, frames, layoutProblems, addFigure, assertSameView, switchLanguage, SCREENSHOTS, ALL_FIGURES } from './harness.js';
import { tablesOf } from '../kit/tables.js';

let server;
before(async () => { server = await start(); });
after(async () => { await server?.close(); });

const CJK = /[\u3400-\u9fff]/;

test('zh.html at 360 px, light then dark: every figure fits, and the translated ones speak Chinese', async () => {
  // loaded once; its figures follow prefers-color-scheme as it changes
  const { page, problems, context } = await openAll(server, '/web/embed/zh.html', { width: 360, colorScheme: 'light' });
  for (const colorScheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme });
    const tags = await page.evaluate(() => [...document.querySelectorAll('main > *')].map((e) => e.localName).filter((t) => t.startsWith('attention-')));
    assert.equal(tags.length, 19);
    await page.setViewportSize({ width: 360, height: 740 });
    await page.evaluate(async () => { for (const e of document.querySelectorAll('main > *')) await e.settled?.(); });
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
    assert.deepEqual(found, [], colorScheme);
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= 360, `the page does not scroll sideways (${colorScheme})`);
  }
  assert.deepEqual(problems, []);
  await context.close();
});

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

  await switchLanguage(page.locator('#mine'), 'en');
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
    for (const lang of ['zh-CN', 'en']) await switchLanguage(el, lang);
    assertSameView(await snap(), before, `${tag}: after a switch to Chinese and back`);
  }
  assert.deepEqual(problems, []);
  await context.close();
});

// A page with one figure in `lang`, as a blogger writes it; every script it
// fetches is kept, to read what words came with them.
async function onePage(tag, lang, { attrs = '', fail } = {}) {
  const html = `<!doctype html><html lang="${lang}"><meta charset="utf-8"><title>${tag}</title>
<script type="module" src="/dist/attention-figures.js"></script><body><${tag} ${attrs}></${tag}></body></html>`;
  const reading = [];
  const opened = await server.open('/one.html', {
    prepare: async (page) => {
      await page.route('**/one.html', (r) => r.fulfill({ contentType: 'text/html', body: html }));
      if (fail) await page.route(fail, (r) => r.abort());
      // (a body still on its way when the test closes the page is read as empty: the page asks for a figure's files ahead)
      page.on('response', (r) => { if (r.url().endsWith('.js')) reading.push(r.text().then((text) => ({ url: r.url(), text }), () => ({ url: r.url(), text: '' }))); });
    },
  });
  await opened.page.waitForFunction((t) => document.querySelector(t)?.matches('[data-ready], [data-error]'), tag);
  /** Every script fetched so far: [{url, text}]. */
  const scripts = () => Promise.all(reading);
  return { ...opened, el: opened.page.locator(tag), scripts };
}

// The string tables a page fetched, by name (their chunks are named after them: basic.strings.en-HASH.js).
const tablesFetched = (scripts) => scripts.map((s) => s.url.match(/\/([\w-]+\.strings\.\w+)-\w+\.js$/)?.[1]).filter(Boolean).sort();
// A text as the minified bundle writes it inside a string: every non-ASCII character escaped, as \xHH or \uHHHH.
const escaped = (text) => text.replace(/[^\x00-\x7e]/g, (c) => {
  const code = c.charCodeAt(0).toString(16).toUpperCase();
  return code.length <= 2 ? `\\x${code.padStart(2, '0')}` : `\\u${code.padStart(4, '0')}`;
});
// The texts of `lang` that differ from `other`'s and say something (a sentence or so), as they stand in a script.
const sayings = (words, lang, other) => Object.entries(words[lang])
  .filter(([k, v]) => typeof v === 'string' && v !== words[other][k] && v.length >= 12 && !/['"`\\\n]/.test(v)).map(([, v]) => escaped(v));

test('a page loads the words of the language it shows; a change of lang loads the other, then rebuilds', async () => {
  // basic takes its words from its table and the shared one (which holds the example checks' too); cost, from measuring's too
  for (const [name, attrs] of [['basic', ''], ['cost', 'n="1024" budget="5"']]) {
    const tag = `attention-${name}`;
    const words = await tablesOf(name);
    for (const [lang, other] of [['en', 'zh'], ['zh', 'en']]) {
      const { page, problems, context, el, scripts } = await onePage(tag, lang, { attrs });
      assert.deepEqual(tablesFetched(await scripts()), [`${name}.strings.${lang}`, `figure.strings.${lang}`].sort(), `${tag} on a ${lang} page`);
      const fetched = (await scripts()).map((s) => s.text).join('\n');
      assert.deepEqual(sayings(words, lang, other).filter((text) => !fetched.includes(text)), [], `${tag}: every text of ${lang} came (the test sees them)`);
      assert.deepEqual(sayings(words, other, lang).filter((text) => fetched.includes(text)), [], `${tag} on a ${lang} page fetched none of ${other}'s texts`);
      assert.equal(await el.evaluate((e) => e.shadowRoot.querySelector('.title').textContent), words[lang].title);

      await switchLanguage(el, other);
      assert.deepEqual(tablesFetched(await scripts()), [`${name}.strings.${lang}`, `figure.strings.${lang}`, `${name}.strings.${other}`, `figure.strings.${other}`].sort());
      assert.equal(await el.evaluate((e) => e.shadowRoot.querySelector('.title').textContent), words[other].title, `${tag} rebuilt in ${other}`);
      assert.deepEqual(problems, []);
      await context.close();
    }
  }
});

test('words that cannot load are said inside the figure: at start it does not start, on a change of lang it stays as it was', async () => {
  const failed = (problems) => problems.filter((p) => !/^request failed: .*\.strings\.\w+-\w+\.js net::ERR_FAILED$|^console error: Failed to load resource/.test(p));
  let { page, problems, context, el } = await onePage('attention-basic', 'zh-CN', { fail: '**/basic.strings.zh-*.js' });
  assert.equal(await el.getAttribute('data-error'), '');
  assert.match(await el.evaluate((e) => e.shadowRoot.querySelector('[role=alert]').textContent), /^这个图表无法启动：/);
  assert.deepEqual(failed(problems), [], 'no unhandled rejection');
  await context.close();

  ({ page, problems, context, el } = await onePage('attention-basic', 'en', { fail: '**/*.strings.zh-*.js' }));
  const title = await el.evaluate((e) => e.shadowRoot.querySelector('.title').textContent);
  await el.evaluate((e) => e.setAttribute('lang', 'zh-CN'));
  await page.waitForFunction(() => document.querySelector('attention-basic').shadowRoot.querySelector('[role=alert]'));
  assert.match(await el.evaluate((e) => e.shadowRoot.querySelector('[role=alert]').textContent), /^这个图表的中文文字无法加载（.+），图表保持原样。$/);
  assert.equal(await el.evaluate((e) => e.shadowRoot.querySelector('.title').textContent), title, 'the figure stays in English');
  assert.equal(await el.evaluate((e) => e.shadowRoot.querySelector('[role=figure]').getAttribute('lang')), 'en');
  await switchLanguage(el, 'en');
  assert.equal(await el.evaluate((e) => e.shadowRoot.querySelector('[role=alert]')), null, 'back in English, the figure is whole again');
  assert.deepEqual(failed(problems), [], 'no unhandled rejection');
  await context.close();
});
