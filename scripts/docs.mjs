// docs.mjs: the "Every element" section of web/embed/README.md, made from the
// figures' own READMEs (web/figures/<name>/README.md) in the registry's
// order. A figure's README is the one place its attributes are written; the
// section gives each figure its heading, the README's summary (the paragraph
// under its title) with its "Attributes" part, the paragraph on its words
// (written here, once for every figure) and a link to the README.
//   npm run docs                 says whether the section is up to date (a diff and exit 1 if not)
//   npm run docs -- --write      rewrites it between its markers
// tests/site/embed-docs.test.js checks the READMEs' parts and that the section is up to date.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FIGURES } from '../web/figures/registry.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const read = (path) => readFileSync(join(ROOT, path), 'utf8');

export const EMBED_README = 'web/embed/README.md';
const MARKERS = /(<!-- elements: npm run docs -- --write -->\n)([\s\S]*?)\n?(<!-- \/elements -->)/;

/** A figure's README, and the headings of its parts, in order. */
export const readmeOf = (name) => `web/figures/${name}/README.md`;
export const PARTS = ['What the reader does and sees', 'Attributes', 'What its tests check'];

/**
 * A figure README's {title, summary, parts}: the `# ` line, the paragraph
 * under it, and the text under each `## ` heading, by heading (a line of a
 * code block is never a heading).
 */
export function readmeParts(text) {
  const [first, ...lines] = text.split('\n');
  const chunks = [{ heading: '', lines: [] }];
  let fenced = false;
  for (const line of lines) {
    if (line.startsWith('```')) fenced = !fenced;
    if (!fenced && line.startsWith('## ')) chunks.push({ heading: line.slice(3), lines: [] });
    else chunks.at(-1).lines.push(line);
  }
  const body = (c) => c.lines.join('\n').trim();
  return {
    title: /^# (.*)$/.exec(first)?.[1] ?? '',
    summary: body(chunks[0]),
    parts: Object.fromEntries(chunks.slice(1).map((c) => [c.heading, body(c)])),
  };
}

/** What every figure says about its words: its own string table (the one place its path is written) and the shared one. */
const words = (name) => `Its words (all it shows, and what it says to screen readers) are the keys of
\`web/figures/${name}/${name}.strings.en.js\` and of \`web/kit/figure.strings.en.js\` (what every
figure shares, "Copy link" and the like), and of their Simplified Chinese twins (\`.strings.zh.js\`):
\`lang="zh-CN"\` (or any \`zh-*\`) on the element or the page picks Chinese, and the page loads
only the language it shows. A page overrides any of them with
a JSON child, \`<script type="application/json" data-strings>{"key": "…", "zh": {"key": "…"}}</script>\`
(a key at the top level is for every language, one under \`zh\` or \`en\` for that one only).`;

/** One figure's subsection of the section, from its README's text. */
export function elementSection({ name, tag }, readme) {
  const { summary, parts } = readmeParts(readme);
  return [
    `### \`${tag}\``,
    `${summary}\n${parts.Attributes}`, // one paragraph: the summary leads into the attributes
    words(name),
    `What the reader does with it and what its tests check: [its README](../figures/${name}/README.md).`,
  ].join('\n\n');
}

/** The section's text: every figure's subsection, in the registry's order. */
export const elements = (readme = (name) => read(readmeOf(name))) =>
  FIGURES.map((f) => elementSection(f, readme(f.name))).join('\n\n');

/** The embed README's `text` with the section between its markers rewritten. */
export function withElements(text, section = elements()) {
  if (!MARKERS.test(text)) throw new Error(`${EMBED_README} has no <!-- elements: npm run docs -- --write --> ... <!-- /elements --> markers`);
  return text.replace(MARKERS, (all, open, body, close) => `${open}${section}\n${close}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const now = read(EMBED_README);
  const made = withElements(now);
  if (process.argv.includes('--write')) {
    if (made !== now) writeFileSync(join(ROOT, EMBED_README), made);
    console.log(`${EMBED_README}: ${made === now ? 'already up to date' : 'Every element rewritten'}`);
  } else if (made === now) {
    console.log(`${EMBED_README}: Every element is up to date`);
  } else {
    const dir = mkdtempSync(join(tmpdir(), 'docs-'));
    writeFileSync(join(dir, 'README.md'), made);
    spawnSync('diff', ['-u', '--label', EMBED_README, '--label', 'made from the figures\' READMEs', join(ROOT, EMBED_README), join(dir, 'README.md')], { stdio: 'inherit' });
    rmSync(dir, { recursive: true });
    console.log(`\n${EMBED_README}: Every element is out of date: npm run docs -- --write`);
    process.exitCode = 1;
  }
}
