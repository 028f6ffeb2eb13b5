// size.test.js: a page pays only for what it shows (issue 26). In Chromium
// over a gzip server (scripts/size.mjs, a fresh profile per page): every
// one-figure page starts, and the budgets hold; a page without a worker
// figure loads no worker and only the attention part's .wasm; nothing loads
// the full engine or a training worker before a Start is pressed; an
// English page loads no Chinese words (i18n.test.js checks a Chinese page
// and a change of lang); the table bench/RESULTS.md holds (npm run size --
// --write) is within 3%.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { BUDGETS, QUOTING, measure, quoted } from '../../scripts/size.mjs';
import { CHROMIUM_TEST_EXECUTABLE } from '../../scripts/chromium.mjs';
import { FIGURES } from '../../web/figures/registry.js';

// (in the headless shell, as the other browser tests: the browser's bytes, less its favicon's 153)
const results = await measure({ executable: CHROMIUM_TEST_EXECUTABLE });
const of = (page) => results.find((r) => r.page === page);
const wasm = (r) => r.files.filter((f) => f.endsWith('.wasm'));

test('every page stays within its budget', () => {
  for (const [page, budget] of Object.entries(BUDGETS)) {
    assert.ok(of(page), `${page} was measured`);
    assert.ok(of(page).bytes <= budget, `${page}: ${of(page).bytes} bytes gzip, budget ${budget}`);
  }
});

// the attention part in the best build; cost also times the scalar one
const parts = (tag) => (tag === 'attention-cost' ? 2 : 1);

test('a one-figure page loads the attention part\'s .wasm, and a worker only for a figure that measures', () => {
  for (const { tag, worker } of FIGURES) {
    const r = of(tag);
    assert.equal(wasm(r).length, parts(tag), `${tag}: ${wasm(r)}`);
    assert.ok(wasm(r).every((f) => /attention-only/.test(f)), `${tag}: ${wasm(r)}`);
    const workers = r.files.filter((f) => f.endsWith('.worker.js'));
    // cost and efficient measure a quick sweep by themselves; induction and tiny-gpt wait for Start
    const measures = tag === 'attention-cost' || tag === 'attention-efficient';
    assert.equal(workers.length, worker && measures ? 1 : 0, `${tag}: ${workers}`);
    // a measuring worker's pool waits for a sweep on every core (Measure)
    assert.ok(!r.files.some((f) => /\/pool(-worker)?\.js$/.test(f)), `${tag} loaded the pool: ${r.files}`);
    assert.ok(!r.files.some((f) => /katex/.test(f)), `${tag} loaded KaTeX: ${r.files}`);
  }
});

// The string tables a page loaded, by name: their chunks are named after them (basic.strings.en-HASH.js).
const tables = (r) => r.files.map((f) => f.match(/\/([\w-]+\.strings\.\w+)-\w+\.js$/)?.[1]).filter(Boolean).sort();

test('an English page loads English words only: a one-figure page, its own table and the shared one', () => {
  for (const { name, tag } of FIGURES) assert.deepEqual(tables(of(tag)), [`${name}.strings.en`, 'figure.strings.en'].sort(), tag);
  for (const page of ['article, first view', 'article, scrolled to the end']) {
    assert.deepEqual(tables(of(page)).filter((t) => !t.endsWith('.en')), [], page);
  }
});

test('the article, scrolled to the end with no button pressed, loads no training worker and not the full engine', () => {
  const r = of('article, scrolled to the end');
  assert.deepEqual(r.files.filter((f) => /(induction|tiny-gpt)\.worker\.js$/.test(f)), []);
  assert.equal(wasm(r).length, parts('attention-cost'), `${wasm(r)}`);
  assert.ok(wasm(r).every((f) => /attention-only/.test(f)), `${wasm(r)}`);
});

test('bench/RESULTS.md holds these sizes (within 3%)', () => {
  for (const file of QUOTING) {
    const q = quoted(readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8'));
    assert.ok(q, `${file} has no size section: npm run size -- --write`);
    for (const r of results) {
      const kb = r.bytes / 1000;
      assert.ok(q[r.page] !== undefined, `${file} does not quote ${r.page}: npm run size -- --write`);
      assert.ok(Math.abs(q[r.page] - kb) / kb < 0.03, `${file} quotes ${q[r.page]} KB for ${r.page}, measured ${kb.toFixed(1)}: npm run size -- --write`);
    }
  }
});
