// Every registered figure has a README (web/figures/<name>/README.md) with
// its three parts: what the reader does and sees; its attributes, each one it
// declares (its `static props`), with a snippet that uses the element; and
// what its tests check, naming test files that exist, every test of its own
// Node tests (tests/figures/<name>/) and only tests those files have.
// docs/embedding.md's "Every element" and README.md's gallery are made from
// those READMEs by scripts/docs.mjs and document every element the bundle
// registers. (What
// pages download, quoted in both READMEs, is tests/browser/size.test.js's.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { FIGURES } from '../../web/figures/registry.js';
import { PARTS, readmeOf, readmeParts, withElements, withGallery } from '../../scripts/docs.mjs';

const read = (path) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const exists = (path) => existsSync(new URL(`../../${path}`, import.meta.url));
const DOCS = read('docs/embedding.md');

/** [{name, file, tag, props}] for every figure of the registry, read from its element's source. */
function registered() {
  return FIGURES.map(({ name }) => {
    const file = `web/figures/${name}/${name}.js`;
    const src = read(file);
    const tag = /defineFigure\('([\w-]+)'/.exec(src)?.[1];
    const block = /static props = \{([\s\S]*?)\};/.exec(src)?.[1] ?? '';
    const props = [...block.matchAll(/\b([a-z]\w*):\s*(?:\{\s*type|weightProp\b|triple\()/g)].map((m) => m[1]);
    return { name, file, tag, props };
  });
}

/** The README's section for `tag` (from its heading to the next). */
const section = (tag) => DOCS.split(/^### /m).find((s) => s.startsWith(`\`${tag}\``));

/** Asserts that `text` (named `where`) names each of `props` in backquotes and has an HTML snippet with `tag`. */
function documents(text, { tag, props }, where) {
  for (const p of props) assert.ok(text.includes(`\`${p}\``), `${where}: attribute ${p} is not documented`);
  assert.match(text, new RegExp(`\`\`\`html\\n[^]*<${tag}[ >][^]*</${tag}>[^]*\`\`\``), `${where}: no snippet of ${tag}`);
}

test('every registered element has a section with each attribute and a snippet', () => {
  const figures = registered();
  assert.ok(figures.length >= 19, `${figures.length} figure modules`);
  for (const figure of figures) {
    assert.ok(figure.tag, `${figure.file} defines no figure`);
    const text = section(figure.tag);
    assert.ok(text, `docs/embedding.md has no section for ${figure.tag}`);
    documents(text, figure, `docs/embedding.md, ${figure.tag}`);
  }
});

/** The titles of a test file's tests: a string, or for a template title a pattern where each `${…}` stands for any text. */
function testTitles(source) {
  const unescape = (t) => t.replace(/\\u([0-9a-fA-F]{4})/g, (_, hex) => String.fromCharCode(parseInt(hex, 16))).replace(/\\(.)/g, '$1');
  return [...source.matchAll(/\btest\(\s*(['"`])((?:\\.|(?!\1).)*)\1/g)].map(([, quote, title]) => (quote !== '`' ? unescape(title)
    : new RegExp(`^${title.split(/\$\{[^}]*\}/).map((t) => unescape(t).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.+')}$`)));
}

/** Whether a title from testTitles is `title`. */
const titled = (x, title) => (typeof x === 'string' ? x === title : x.test(title));

/**
 * What a README's "What its tests check" names: {file: [titles]}. A line that
 * is not a list item names a test file (`tests/….test.js`); the items after
 * it name tests of that file, each title in backquotes first: - `title`: ...
 */
function namedTests(text) {
  const named = {};
  let file = null;
  for (const line of text.split('\n')) {
    const item = /^- `([^`]+)`/.exec(line);
    if (item) {
      assert.ok(file, `a test named before any test file: ${item[1]}`);
      named[file].push(item[1]);
    } else if (!line.startsWith(' ')) {
      const path = /`(tests\/[\w./-]+\.test\.js)`/.exec(line)?.[1];
      if (path) named[file = path] ??= [];
    }
  }
  return named;
}

test('every figure has a README: a title, what the reader does and sees, each attribute with a snippet, and its tests', () => {
  for (const figure of registered()) {
    const { name, tag } = figure;
    const where = readmeOf(name);
    assert.ok(exists(where), `${where} is missing`);
    const { title, summary, parts } = readmeParts(read(where));
    assert.equal(title, tag, `${where}: the title is the tag`);
    assert.ok(summary && !summary.includes('\n\n'), `${where}: one paragraph under the title (the embed README's summary)`);
    assert.deepEqual(Object.keys(parts), PARTS, `${where}: its parts`);
    assert.ok(parts[PARTS[0]].length > 200, `${where}: a few sentences on what the reader does and sees`);
    assert.ok(/^(?!```|#|<)\S/.test(parts.Attributes), `${where}: the attributes start with text (the summary runs into it in the embed README)`);
    documents(parts.Attributes, figure, `${where}, Attributes`);
    // the tests it names exist, with those titles; its own Node tests are all there
    const named = namedTests(parts[PARTS[2]]);
    const folder = `tests/figures/${name}`;
    const own = exists(folder) ? readdirSync(new URL(`../../${folder}`, import.meta.url)).filter((f) => f.endsWith('.test.js')).map((f) => `${folder}/${f}`) : [];
    assert.ok(own.length, `${folder}/ has no tests`);
    for (const file of own) assert.ok(named[file], `${where} does not say what ${file} checks`);
    for (const [file, titles] of Object.entries(named)) {
      assert.ok(exists(file), `${where} names ${file}, which does not exist`);
      const tests = testTitles(read(file));
      for (const t of titles) assert.ok(tests.some((x) => titled(x, t)), `${where}: ${file} has no test "${t}"`);
      if (own.includes(file)) for (const x of tests) assert.ok(titles.some((t) => titled(x, t)), `${where}: says nothing of ${file}'s test "${x.source ?? x}"`);
    }
  }
});

test('docs/embedding.md\'s "Every element" is made from the figures\' READMEs (scripts/docs.mjs)', () => {
  assert.ok(DOCS === withElements(DOCS), 'docs/embedding.md\'s "Every element" is out of date: run npm run docs -- --write');
});


test('README.md\'s gallery is made from the registry and the figures\' READMEs (scripts/docs.mjs)', () => {
  const readme = read('README.md');
  assert.ok(readme === withGallery(readme), 'README.md\'s gallery is out of date: run npm run docs -- --write');
});
