// Every word a figure shows comes from its string table (web/kit/i18n.js),
// complete in English and Simplified Chinese, and a page can override any.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { translator, languageOf, fill, loadTexts, LANGUAGES } from '../../web/kit/i18n.js';
import { FIGURES } from '../../web/figures/registry.js';
import { FIGURE_AND_KIT_FILES as FILES, WEB, readWeb as read } from './sources.js';

const DIR = WEB;
// A table: one file per language (<x>.strings.en.js, <x>.strings.zh.js),
// or both languages in one (loading.strings.js, which the autoloader carries).
const STRINGS = /\.strings(\.\w+)?\.js$/;
const TABLES = FILES.filter((f) => /\.strings\.js$/.test(f) || f.endsWith('.strings.en.js')).map((f) => f.replace(/\.en\.js$/, '.{lang}.js'));
const load = async (file) => (await import(new URL(file, DIR))).default;
/** {en, zh} of a table file (or of a pair of them). */
const tableOf = async (file) => (file.includes('{lang}')
  ? Object.fromEntries(await Promise.all(LANGUAGES.map(async (lang) => [lang, await load(file.replace('{lang}', lang))])))
  : load(file));

const CJK = /[\u3400-\u9fff]/;
// Latin words of two or more letters, outside inline math ($…$) and placeholders ({name}).
const latinWords = (text) => text.replace(/\$[^$]*\$/g, ' ').replace(/\{\w+\}/g, ' ').match(/[A-Za-z]{2,}/g) ?? [];

for (const file of TABLES) {
  test(`${file}: English and Chinese hold the same keys, and the Chinese is Chinese`, async () => {
    const table = await tableOf(file);
    assert.deepEqual(Object.keys(table).sort(), [...LANGUAGES].sort());
    assert.deepEqual(Object.keys(table.zh).sort(), Object.keys(table.en).sort(), 'the same keys');
    for (const lang of LANGUAGES) {
      for (const [key, text] of Object.entries(table[lang])) {
        assert.ok(typeof text === 'string' || typeof text === 'function', `${lang}.${key} is a string or a function`);
      }
    }
    for (const [key, text] of Object.entries(table.zh)) {
      if (typeof text !== 'string') continue;
      // names, units and symbols may stay as they are (R, G, B; SVG; d_k); prose may not
      const words = latinWords(text);
      assert.ok(CJK.test(text) || words.length <= 1, `zh.${key} reads as English: ${JSON.stringify(text)}`);
    }
  });
}

test('a page overrides any string, for every language or for one; placeholders are filled', async () => {
  const loaded = [];
  const tables = {
    en: async () => { loaded.push('en'); return { default: { hello: 'Hello {who}', bye: ({ n }) => `bye ×${n}` } }; },
    zh: async () => { loaded.push('zh'); return { default: { hello: '你好 {who}', bye: ({ n }) => `再见 ×${n}` } }; },
  };
  const en = await loadTexts(tables, 'en');
  assert.deepEqual(loaded, ['en'], 'only the language asked for is loaded');
  const zh = await loadTexts(tables, 'zh');
  assert.equal(translator(en, 'en')('hello', { who: 'Ada' }), 'Hello Ada');
  assert.equal(translator(zh, 'zh')('hello', { who: 'Ada' }), '你好 Ada');
  assert.equal(translator(zh, 'zh')('bye', { n: 2 }), '再见 ×2');
  assert.equal(translator(zh, 'zh', [{ hello: 'Hi {who}' }])('hello', { who: 'A' }), 'Hi A', 'a top-level override is for every language');
  const both = [{ hello: 'Hi', zh: { hello: '嗨 {who}' } }];
  assert.equal(translator(zh, 'zh', both)('hello', { who: 'A' }), '嗨 A');
  assert.equal(translator(en, 'en', both)('hello'), 'Hi');
  assert.equal(translator(en, 'en', [{ bye: 'Cheers {n}' }])('bye', { n: 3 }), 'Cheers 3', 'a string replaces a function');
  assert.equal(translator(en, 'en')('copyLink'), 'Copy link', 'the shared table is underneath');
  assert.equal(translator(zh, 'zh')('copyLink'), '复制链接');
  assert.equal(translator({}, 'zh')('loading'), '图表加载中\u2026', 'what a figure says before its tables load needs none of them');
  assert.equal(fill('{a} and {b}', { a: '<b>' }), '<b> and {b}', 'text stays text; unknown names stay');
  assert.throws(() => translator(en, 'en')('nope'), /no string "nope"/);
  assert.throws(() => translator(en, 'en', ['x']), TypeError);
});

test('the language comes from the nearest lang: zh-* picks Chinese, anything else English', () => {
  const el = (lang) => ({ closest: () => (lang === null ? null : { getAttribute: () => lang }) });
  for (const [lang, want] of [['zh-CN', 'zh'], ['zh-Hans', 'zh'], ['zh', 'zh'], ['ZH-tw', 'zh'], ['en', 'en'], ['fr', 'en'], ['zhx', 'en'], ['', 'en']]) {
    assert.equal(languageOf(el(lang)), want, lang);
  }
});

// Prose in a figure's code is a string that missed its table. This finds
// string literals holding three or more words in a row (CSS, tags and
// programmers' errors aside).
const SHARED_ALLOWED = new Set([
  'rect, line, circle, polyline, polygon, path, text', // export.js: a selector
  'img, svg, picture', // figure-element.js: a selector (a page's picture of a figure)
  'this article builds it up one idea at a time', // tiny-gpt.model.js: a sentence of the article the model reads (content, not UI)
  '(prefers-color-scheme: dark)',
  'error example-error', // class names
  'attention-katex-css',
]);
function prose(source) {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1')
    .replace(/throw new \w*Error\([^;]*\);/g, ''); // a programmer's error, in the API's English
  const found = [];
  for (const m of code.matchAll(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g)) {
    const text = m[0].slice(1, -1).replace(/\$\{[^}]*\}/g, ' ');
    if (/[{};]\s*$|^\s*[.:#@]|--attention|px|rgb\(/.test(text) || /^[a-z0-9]+(?:-[a-z0-9]+)+$/.test(text) /* a tag, a name, a value */ || SHARED_ALLOWED.has(text)) continue;
    if (/[A-Za-z]{2,}(?:[ ,'\u2019-]+[A-Za-z]{2,}){2,}/.test(text)) found.push(text);
  }
  return found;
}
test('no figure code holds prose of its own: its words are in its string table', () => {
  const left = FILES.filter((f) => !STRINGS.test(f))
    .flatMap((f) => prose(read(f)).map((text) => `${f}: ${text.slice(0, 80)}`));
  assert.deepEqual(left, []);
});

test('every figure reads its own string tables, each language only when asked (a dynamic import)', () => {
  assert.equal(FIGURES.length, 19);
  for (const { name } of FIGURES) {
    const source = read(`figures/${name}/${name}.js`);
    for (const lang of LANGUAGES) {
      assert.ok(source.includes(`${lang}: () => import('./${name}.strings.${lang}.js')`), `${name}.js imports its ${lang} table when asked`);
    }
    assert.ok(TABLES.includes(`figures/${name}/${name}.strings.{lang}.js`), `${name}.strings.en.js and .zh.js exist`);
  }
  // a static import of a one-language table would put it in every page, whatever its language
  const langOf = (path) => path.match(/\.strings\.(\w+)\.js$/)?.[1];
  const statically = FILES.flatMap((f) => [...read(f).matchAll(/^import [^;]*? from '([^']*)';$/gm)]
    .filter((m) => langOf(m[1]) && langOf(m[1]) !== langOf(f)).map((m) => `${f}: ${m[1]}`));
  assert.deepEqual(statically, [], 'only a table imports another, in its own language');
});
