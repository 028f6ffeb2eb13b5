// docs.mjs: the docs' parts made from the figures' registry and their own
// READMEs (web/figures/<name>/README.md), in the registry's order, so that
// no list of figures is typed by hand:
//   README.md's gallery: a table of every figure (its tag, the summary under
//     its README's title, a link to the README);
//   docs/embedding.md's "Every element": each figure's heading, its README's
//     summary with its "Attributes" part, and a link to the README.
// A figure's README is the one place its attributes are written.
//   npm run docs                 says whether both are up to date (a diff and exit 1 if not)
//   npm run docs -- --write      rewrites them between their markers
// tests/site/embed-docs.test.js checks the READMEs' parts and that both are up to date.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FIGURES } from '../web/figures/registry.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const read = (path) => readFileSync(join(ROOT, path), 'utf8');

export const EMBED_README = 'docs/embedding.md';
export const README = 'README.md';
const MARKERS = /(<!-- elements: npm run docs -- --write -->\n)([\s\S]*?)\n?(<!-- \/elements -->)/;
const GALLERY_MARKERS = /(<!-- gallery: npm run docs -- --write -->\n)([\s\S]*?)\n?(<!-- \/gallery -->)/;

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

/** One figure's subsection of the section, from its README's text. */
export function elementSection({ name, tag }, readme) {
  const { summary, parts } = readmeParts(readme);
  return [
    `### \`${tag}\``,
    `${summary}\n${parts.Attributes}`, // one paragraph: the summary leads into the attributes
    `What the reader does with it and what its tests check: [its README](../web/figures/${name}/README.md).`,
  ].join('\n\n');
}

/** The section's text: every figure's subsection, in the registry's order. */
export const elements = (readme = (name) => read(readmeOf(name))) =>
  FIGURES.map((f) => elementSection(f, readme(f.name))).join('\n\n');

/** The embedding docs' `text` with the section between its markers rewritten. */
export function withElements(text, section = elements()) {
  if (!MARKERS.test(text)) throw new Error(`${EMBED_README} has no <!-- elements: npm run docs -- --write --> ... <!-- /elements --> markers`);
  return text.replace(MARKERS, (all, open, body, close) => `${open}${section}\n${close}`);
}

/** A summary's first sentence on one line, up to a colon or semicolon, without its asides in brackets. */
export const oneLine = (summary) => {
  const flat = summary.replace(/\s*\n\s*/g, ' ').replace(/ \([^()]*\)/g, '');
  const first = (/^.*?[.!?](?=\s|$)/.exec(flat)?.[0] ?? flat).replace(/[:;] .*$/, '.');
  return first.replace(/\|/g, '\\|');
};

/** README.md's gallery: a row per figure, its tag, the first sentence of its README's summary and a link to the README. */
export const gallery = (readme = (name) => read(readmeOf(name))) => [
  '| figure | what it shows | |',
  '| --- | --- | --- |',
  ...FIGURES.map(({ name, tag }) => `| \`${tag}\` | ${oneLine(readmeParts(readme(name)).summary)} | [README](${readmeOf(name)}) |`),
].join('\n');

/** README.md's `text` with its gallery rewritten. */
export function withGallery(text, table = gallery()) {
  if (!GALLERY_MARKERS.test(text)) throw new Error(`${README} has no <!-- gallery: npm run docs -- --write --> ... <!-- /gallery --> markers`);
  return text.replace(GALLERY_MARKERS, (all, open, body, close) => `${open}${table}\n${close}`);
}

/** The files this script writes, each with the function that makes its text from what it is now. */
export const MADE = [[EMBED_README, withElements], [README, withGallery]];

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const [file, make] of MADE) {
    const now = read(file);
    const made = make(now);
    if (process.argv.includes('--write')) {
      if (made !== now) writeFileSync(join(ROOT, file), made);
      console.log(`${file}: ${made === now ? 'already up to date' : 'rewritten'}`);
    } else if (made === now) {
      console.log(`${file}: up to date`);
    } else {
      const dir = mkdtempSync(join(tmpdir(), 'docs-'));
      writeFileSync(join(dir, 'made.md'), made);
      spawnSync('diff', ['-u', '--label', file, '--label', 'made from the registry and the figures\' READMEs', join(ROOT, file), join(dir, 'made.md')], { stdio: 'inherit' });
      rmSync(dir, { recursive: true });
      console.log(`\n${file} is out of date: npm run docs -- --write`);
      process.exitCode = 1;
    }
  }
}
