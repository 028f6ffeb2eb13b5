// The article (web/article.html) as a document:
//   - every work it cites by author and year is in its Works cited, under
//     the same first author and year, with every author the text names;
//     every year in the text belongs to such a citation; and every entry of
//     the Works cited is cited (by author and year, or by the short name the
//     entry gives in parentheses, such as "(RoPE)");
//   - no two elements share an id, every link within the page points to
//     one, and the sections' anchors stay on their headings (a figure's
//     "Copy link" names it by its own id or, without one, by its tag:
//     state-link.js, so a figure needs no id of its own).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

const HTML = readFileSync(new URL('../../web/article.html', import.meta.url), 'utf8');
const text = (html) => html.replace(/<[^>]+>/g, '').replace(/&amp;/g, '&').replace(/\s+/g, ' ');

const listStart = HTML.indexOf('<p>Works cited above:</p>');
const listEnd = HTML.indexOf('</ul>', listStart);
const WORKS = [...HTML.slice(listStart, listEnd).matchAll(/<li>([\s\S]*?)<\/li>/g)].map(([, li]) => {
  const entry = text(li);
  const [, authors, year] = entry.match(/^(.+?) \(((?:19|20)\d\d)\),/) ?? [];
  assert.ok(authors, `a Works cited entry without "Authors (year),": ${entry}`);
  return { entry, year, surnames: authors.split(/, | and /), short: entry.match(/\(([A-Za-z]+)\)[,.]?[^()]*$/)?.[1] };
});
const PROSE = text(HTML.slice(0, listStart) + HTML.slice(listEnd));

// "Name (2020)", "Name and Name (2018)", "Name, Name and Name (2020)", "Name et al. (2022)",
// "(Name et al., 2022)", "(Name, Name and Name, 2020)"
const NAME = "[A-Z][\\p{Ll}\\p{Lu}'\u2019-]+";
const CITATION = new RegExp(`(${NAME}(?:(?:, | and )${NAME})*)( et al\\.| and colleagues)?,? \\(?((?:19|20)\\d\\d)\\)?`, 'gu');

test('works cited: every citation in the text is listed, every listed work is cited', () => {
  assert.ok(WORKS.length >= 10, `${WORKS.length} entries`);
  const citations = [...PROSE.matchAll(CITATION)].map((m) => ({ at: m.index, end: m.index + m[0].length, names: m[1].split(/, | and /), year: m[3], text: m[0] }));
  for (const c of citations) {
    const work = WORKS.find((w) => w.surnames[0] === c.names[0] && w.year === c.year);
    assert.ok(work, `"${c.text}" is not in the Works cited`);
    for (const name of c.names) assert.ok(work.surnames.includes(name), `"${c.text}": ${name} is not an author of "${work.entry}"`);
  }
  // a year the pattern did not take as a citation is a citation written some other way
  for (const m of PROSE.matchAll(/\b(?:19|20)\d\d\b/g)) {
    assert.ok(citations.some((c) => m.index >= c.at && m.index < c.end), `a year outside a citation: "${PROSE.slice(m.index - 60, m.index + 6)}"`);
  }
  for (const w of WORKS) {
    const cited = citations.some((c) => c.names[0] === w.surnames[0] && c.year === w.year) || (w.short && PROSE.includes(`(${w.short})`));
    assert.ok(cited, `"${w.entry}" is never cited in the text`);
  }
  // the two the text names for the cheaper attention
  assert.match(PROSE, /Longformer \(Beltagy, Peters and Cohan, 2020\)/);
  assert.match(PROSE, /Performer \(Choromanski et al\., 2021\)/);
});

test('ids: none shared; every in-page link points to one; the sections keep their anchors', () => {
  const ids = [...HTML.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]);
  const seen = new Set();
  const twice = ids.filter((id) => seen.size === seen.add(id).size);
  assert.deepEqual(twice, [], 'ids used twice');
  for (const [, target] of HTML.matchAll(/href="#([^"]+)"/g)) assert.ok(seen.has(target), `a link to #${target}, which is nowhere`);
  // the anchors a heading and its figure both had: the heading keeps them
  for (const id of ['tempering', 'tiny-gpt', 'cross', 'cost']) assert.match(HTML, new RegExp(`<h[23] id="${id}">`), `#${id} is a heading`);
  // a figure without an id is linked by its tag's name (state-link.js figureId), so its links did not change
  for (const tag of ['tempering', 'tiny-gpt', 'cross', 'cost']) {
    assert.equal([...HTML.matchAll(new RegExp(`<attention-${tag}[\\s>]`, 'g'))].length, 1, `one attention-${tag}`);
    assert.match(HTML, new RegExp(`<attention-${tag}>`), `attention-${tag} has no id of its own`);
  }
});
