// doc-paths.test.js: issue 27, finding 8 (the READMEs drifted from the code).
//   - every file path the two READMEs name in backquotes exists in the
//     repository (built ones after bash build.sh): `<name>` stands for each
//     registered figure, a path under web/embed/ may be written from its
//     folder;
//   - the embed README says which build a page's figures get as it is:
//     relaxed SIMD where the engine validates it (Chromium), as
//     tests/browser/relaxed.test.js checks in Chromium.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { FIGURES } from '../../web/figures/registry.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const READMES = ['README.md', 'web/embed/README.md'];
// folders a README writes paths from: its own, and the snippets' (hugo/, jekyll/)
const BASES = ['', 'web/embed', 'web/embed/hugo', 'web/embed/jekyll'];
// paths that are examples of a reader's own site, not files of this repository
// (and of the bundler apps the Bundlers section builds: its entry and its output)
const EXAMPLES = new Set(['js/attention-figures.js', 'src/index.js', 'dist/main.js']);

/** The file paths `like/this.ext` a README names (no globs, no URLs, no site paths). */
function paths(text) {
  return [...new Set([...text.matchAll(/`([\w.<>-]+(?:\/[\w.<>-]+)+\.[a-z]{1,4})`/g)].map((m) => m[1]))]
    .filter((p) => !p.startsWith('node_modules/') && !EXAMPLES.has(p));
}

test('every file path the READMEs name exists', () => {
  const missing = [];
  for (const readme of READMES) {
    const named = paths(readFileSync(join(ROOT, readme), 'utf8'));
    assert.ok(named.length > 10, `${readme} names ${named.length} paths`);
    for (const path of named) {
      const each = path.includes('<name>') ? FIGURES.map((f) => path.replaceAll('<name>', f.name)) : [path];
      for (const p of each) if (!BASES.some((b) => existsSync(join(ROOT, b, p)))) missing.push(`${readme}: ${p}`);
    }
  }
  assert.deepEqual(missing, []);
});

test('the embed README says the figures get the relaxed SIMD build where the browser validates it (Chromium)', () => {
  const docs = readFileSync(join(ROOT, 'web/embed/README.md'), 'utf8');
  const sentence = /[^.]*one\s+WebAssembly\s+instance[^.]*\./.exec(docs)?.[0];
  assert.ok(sentence, 'the sentence on the shared WebAssembly instance');
  assert.match(sentence, /relaxed[\s-]+SIMD[^.]*Chromium/, sentence);
});
