// docs.test.js: the docs stay true to the repository. Over every Markdown
// file of the project (the README, docs/, CONTRIBUTING, SECURITY, bench/,
// the figures' and the snippets' READMEs):
//   - every relative link and image points at a file that exists, and a
//     link's #anchor at a heading of the file it names;
//   - every file path named in backquotes exists (built ones after
//     bash build.sh): `<name>` stands for each registered figure (each that
//     has a worker, in a worker's path), any other `<word>` for some text of
//     a file in that folder, and a path may be written from the doc's own
//     folder or from the snippets' (web/embed/, hugo/, jekyll/);
//   - every number quoted from bench/RESULTS.md, a link to its section with
//     the row's first cells as the link's title ("cell | cell"), is a number
//     of that row, and such a link always names its row;
//   - the README stays within 1,200 words, and its JavaScript example runs;
//   - no doc speaks of how the project was built (issue numbers, rounds of
//     work, sessions, the notebook it started from);
//   - docs/embedding.md says which build a page's figures get, as
//     tests/browser/relaxed.test.js checks in Chromium.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FIGURES } from '../../web/figures/registry.js';
import { rowOf, sectionNames, sectionOf } from '../../bench/lib/results.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const read = (path) => readFileSync(join(ROOT, path), 'utf8');
const SKIP = new Set(['node_modules', '.git', 'build', 'dist', 'artifacts']);

/** Every Markdown file of the project, as paths from its root. */
function markdownFiles(dir = '') {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const path = dir ? `${dir}/${e.name}` : e.name;
    if (e.isDirectory()) return SKIP.has(e.name) || e.name.startsWith('.') ? [] : markdownFiles(path);
    return e.name.endsWith('.md') ? [path] : [];
  });
}
const DOCS = markdownFiles();

/** The text outside fenced code blocks (links and paths in code are examples, checked elsewhere). */
function prose(text) {
  let fenced = false;
  return text.split('\n').filter((line) => {
    if (/^ *```/.test(line)) return (fenced = !fenced), false;
    return !fenced;
  }).join('\n');
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to '-'. */
export const slug = (heading) => heading.trim().toLowerCase().replace(/<[^>]+>/g, '').replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');

/** The anchors of a Markdown text: its headings' slugs (a repeated one gets -1, -2, as GitHub numbers them). */
function anchors(text) {
  const seen = new Map();
  return new Set(prose(text).split('\n').filter((l) => /^#{1,6} /.test(l)).map((l) => {
    const s = slug(l.replace(/^#+ /, ''));
    const n = seen.get(s) ?? 0;
    seen.set(s, n + 1);
    return n ? `${s}-${n}` : s;
  }));
}

/** [{text, target, title}] of a Markdown text's links and images. */
const links = (text) => [...prose(text).matchAll(/!?\[((?:[^\]\\]|\\.)*)\]\(([^)\s]+)(?:\s+"([^"]*)")?\)/g)]
  .map(([, label, target, title]) => ({ text: label, target, title }));

const external = (target) => /^[a-z][a-z0-9+.-]*:/i.test(target);

/** Where a link goes: {file (from the root), anchor}; an anchor alone stays in `doc`. */
function resolveLink(doc, target) {
  const [path, anchor = null] = target.split('#');
  return { file: path ? relative(ROOT, join(ROOT, dirname(doc), decodeURI(path))) : doc, anchor: anchor && decodeURIComponent(anchor) };
}

test('the docs are the project\'s Markdown files', () => {
  for (const doc of ['README.md', 'CONTRIBUTING.md', 'SECURITY.md', 'docs/api.md', 'docs/embedding.md', 'docs/internals.md',
    'bench/README.md', 'bench/RESULTS.md', ...FIGURES.map((f) => `web/figures/${f.name}/README.md`)]) {
    assert.ok(DOCS.includes(doc), `${doc} is missing`);
  }
});

test('every relative link and image points at a file that exists, and every #anchor at a heading there', () => {
  const broken = [];
  let checked = 0;
  for (const doc of DOCS) {
    for (const { target } of links(read(doc))) {
      if (external(target)) continue;
      checked++;
      const { file, anchor } = resolveLink(doc, target);
      if (!existsSync(join(ROOT, file))) broken.push(`${doc}: ${target} (no ${file})`);
      else if (anchor && file.endsWith('.md') && !anchors(read(file)).has(anchor)) broken.push(`${doc}: ${target} (no heading #${anchor} in ${file})`);
    }
  }
  assert.ok(checked > 30, `${checked} links checked`);
  assert.deepEqual(broken, []);
});

// paths that are examples of a reader's own site or app, not files of this repository
const EXAMPLES = new Set(['js/attention-figures.js', 'src/index.js', 'dist/main.js', 'public/js/index.js', 'pictures/cold.svg', 'assets/pictures/cold.svg']);
// folders a doc may write paths from: the root, its own, and the snippets'
const BASES = ['', 'web/embed', 'web/embed/hugo', 'web/embed/jekyll'];

/** The file paths `like/this.ext` a doc names in backquotes (no globs, no URLs, no site paths). */
const paths = (text) => [...new Set([...text.matchAll(/`([\w.<>-]+(?:\/[\w.<>-]+)+\.[a-z]{1,4})`/g)].map((m) => m[1]))]
  .filter((p) => !p.startsWith('node_modules/') && !EXAMPLES.has(p));

/** Whether `path` exists; a `<word>` in its file name stands for any text. */
function exists(path) {
  if (!/<\w+>/.test(path)) return existsSync(join(ROOT, path));
  const dir = join(ROOT, dirname(path));
  const name = new RegExp(`^${path.split('/').at(-1).split(/<\w+>/).map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.+')}$`);
  return existsSync(dir) && readdirSync(dir).some((f) => name.test(f));
}

test('every file path the docs name exists', () => {
  const missing = [];
  let checked = 0;
  for (const doc of DOCS) {
    for (const path of paths(read(doc))) {
      const figures = path.includes('.worker.') ? FIGURES.filter((f) => f.worker) : FIGURES;
      const each = path.includes('<name>') ? figures.map((f) => path.replaceAll('<name>', f.name)) : [path];
      for (const p of each) {
        checked++;
        if (![...BASES, dirname(doc)].some((b) => exists(join(b, p)))) missing.push(`${doc}: ${p}`);
      }
    }
  }
  assert.ok(checked > 200, `${checked} paths checked`);
  assert.deepEqual(missing, []);
});

/** The numbers of a text, as written ("1,024" as 1024; "1.9×" as 1.9). */
const numbers = (text) => [...text.matchAll(/\d[\d,]*(?:\.\d+)?/g)].map((m) => Number(m[0].replaceAll(',', '')));

/** Every link into bench/RESULTS.md that quotes a number: {doc, text, title, section (its text), anchor}. */
function quotes() {
  const results = read('bench/RESULTS.md');
  const byAnchor = new Map(sectionNames(results).map((name) => {
    const section = sectionOf(results, name);
    return [slug(/^## (.*)$/m.exec(section)?.[1] ?? ''), section];
  }));
  return DOCS.flatMap((doc) => links(read(doc)).filter(({ target, text }) => !external(target) && /\d/.test(text)
    && resolveLink(doc, target).file === 'bench/RESULTS.md').map(({ target, text, title }) => {
    const { anchor } = resolveLink(doc, target);
    return { doc, text, title, anchor, section: byAnchor.get(anchor) };
  }));
}

test('every number the docs quote from bench/RESULTS.md is a number of the row its link names', () => {
  const found = quotes();
  assert.ok(found.length >= 1, `${found.length} quoted numbers`);
  const wrong = [];
  for (const q of found) {
    const where = `${q.doc}: [${q.text}] -> #${q.anchor}`;
    if (!q.section) { wrong.push(`${where}: no such section`); continue; }
    if (!q.title) { wrong.push(`${where}: the link does not name its row (its title: "first cell | second cell")`); continue; }
    const row = rowOf(q.section, q.title.split(' | '));
    if (!row) { wrong.push(`${where}: no row "${q.title}"`); continue; }
    const quoted = numbers(q.text)[0];
    if (!numbers(row.slice(q.title.split(' | ').length).join(' ')).includes(quoted)) wrong.push(`${where}: ${quoted} is not in the row "${row.join(' | ')}"`);
  }
  assert.deepEqual(wrong, []);
});

/** Words as `wc -w` counts them. */
const words = (text) => text.split(/\s+/).filter(Boolean).length;

test('the README is at most 1,200 words', () => {
  const n = words(read('README.md'));
  assert.ok(n <= 1200, `README.md has ${n} words`);
});

test('the README\'s JavaScript example runs as written', () => {
  const code = /^```js\n(import \{ loadAttention \} from 'attention-wasm';[\s\S]*?)^```/m.exec(read('README.md'))?.[1];
  assert.ok(code, 'README.md has a ```js block that imports attention-wasm');
  assert.ok(code.trimEnd().split('\n').length <= 10, 'ten lines at most');
  const dir = join(ROOT, 'tests/artifacts');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'readme-example.mjs'), code); // inside the package, so 'attention-wasm' is this package
  const out = execFileSync(process.execPath, [join(dir, 'readme-example.mjs')], { encoding: 'utf8', timeout: 60_000 });
  const printed = numbers(out.replace(/Float32Array\(\d+\)/g, ''));
  assert.ok(printed.length >= 6 && printed.every(Number.isFinite), out);
});

// how the project was built, which no reader can know: issue numbers, rounds of work, sessions, its first notebook
const HISTORY = [/\bissues? #?\d+/i, /\b(this|last|next|previous|earlier|later|first|second|third|fourth|fifth|one) round\b/i,
  /\bround (one|two|three|four|five|\d+)\b/i, /\brounds of work\b/i, /\bsessions?\b/i, /\bseed notebook\b/i];

test('no doc speaks of how the project was built', () => {
  const found = [];
  for (const doc of DOCS) {
    read(doc).split('\n').forEach((line, i) => {
      for (const re of HISTORY) if (re.test(line)) found.push(`${doc}:${i + 1}: ${line.trim()}`);
    });
  }
  assert.deepEqual(found, []);
});

test('the embedding docs say the figures get the relaxed SIMD build where the browser validates it (Chromium)', () => {
  const sentence = /[^.]*one\s+WebAssembly\s+instance[^.]*\./.exec(read('docs/embedding.md'))?.[0];
  assert.ok(sentence, 'the sentence on the shared WebAssembly instance');
  assert.match(sentence, /relaxed[\s-]+SIMD[^.]*Chromium/, sentence);
});
