// web/embed/README.md documents every element the bundle registers, every
// attribute each one declares (its `static props`) with a snippet that uses
// the element. (What pages download, quoted in both READMEs, is
// tests/browser/size.test.js's.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { FIGURES } from '../../web/figures/registry.js';

const read = (path) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const DOCS = read('web/embed/README.md');

/** [{file, tag, props}] for every figure of the registry, read from its element's source. */
function registered() {
  return FIGURES.map(({ name }) => {
    const file = `web/figures/${name}/${name}.js`;
    const src = read(file);
    const tag = /defineFigure\('([\w-]+)'/.exec(src)?.[1];
    const block = /static props = \{([\s\S]*?)\};/.exec(src)?.[1] ?? '';
    const props = [...block.matchAll(/\b([a-z]\w*):\s*(?:\{\s*type|weightProp\b|triple\()/g)].map((m) => m[1]);
    return { file, tag, props };
  });
}

/** The README's section for `tag` (from its heading to the next). */
const section = (tag) => DOCS.split(/^### /m).find((s) => s.startsWith(`\`${tag}\``));

test('every registered element has a section with each attribute and a snippet', () => {
  const figures = registered();
  assert.ok(figures.length >= 19, `${figures.length} figure modules`);
  for (const { file, tag, props } of figures) {
    assert.ok(tag, `${file} defines no figure`);
    const text = section(tag);
    assert.ok(text, `web/embed/README.md has no section for ${tag}`);
    for (const p of props) assert.ok(text.includes(`\`${p}\``), `${tag}: attribute ${p} is not documented`);
    assert.match(text, new RegExp(`\`\`\`html\\n[^]*<${tag}[ >][^]*</${tag}>[^]*\`\`\``), `${tag}: no snippet`);
  }
});

