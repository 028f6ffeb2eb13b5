// docs.js: what docs/embedding.md tells a user to write, read from it, so
// that the consumer tests run the documented lines themselves.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

const README = readFileSync(new URL('../../docs/embedding.md', import.meta.url), 'utf8');

/** The text under the heading `title` (any level), up to the next heading of that level or higher. */
export function section(title) {
  // a line of a code block is never a heading (a shell comment starts with '# ')
  let fenced = false;
  const lines = README.split('\n');
  const headings = lines.map((l) => {
    if (l.startsWith('```')) fenced = !fenced;
    return fenced ? 0 : /^(#+) /.exec(l)?.[1].length ?? 0;
  });
  const at = lines.findIndex((l, i) => headings[i] && l.slice(headings[i] + 1) === title);
  assert.ok(at >= 0, `docs/embedding.md has no heading "${title}"`);
  const end = headings.findIndex((h, i) => i > at && h && h <= headings[at]);
  return lines.slice(at + 1, end < 0 ? undefined : end).join('\n');
}

/** The ```lang code blocks of section `title` (a block in a list item unindented); at least one. */
export function blocks(title, lang) {
  const found = [...section(title).matchAll(new RegExp(`^( *)\`\`\`${lang}\\n([\\s\\S]*?)^\\1\`\`\``, 'gm'))]
    .map(([, indent, text]) => text.replace(new RegExp(`^${indent}`, 'gm'), ''));
  assert.ok(found.length, `docs/embedding.md's "${title}" has no ${lang} block`);
  return found;
}
