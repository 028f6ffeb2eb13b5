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
// The article as served (web/index.html, made by scripts/article.mjs):
//   - every formula of the source is MathML in the page, and every figure
//     holds its picture, which exists, with its size; Mozilla's Readability
//     (reader mode) keeps both;
//   - its og:image is a figure's PNG, which exists; with ARTICLE_URL the
//     link preview's addresses are absolute under it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { JSDOM } from 'jsdom';
import { Readability } from '@mozilla/readability';

import { FIGURES } from '../../web/figures/registry.js';
import { articlePage } from '../../scripts/article.mjs';

const HTML = readFileSync(new URL('../../web/article.html', import.meta.url), 'utf8');
// URLs' anchors that once named both a section and its figure (fixed: pages link to them), not a list of figures
const SHARED_ANCHORS = ['tempering', 'tiny-gpt', 'cross', 'cost'];
const SERVED = readFileSync(new URL('../../web/index.html', import.meta.url), 'utf8');
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
  // the anchors a heading and its figure both had (links to them exist): the heading keeps them
  for (const id of SHARED_ANCHORS) assert.match(HTML, new RegExp(`<h[23] id="${id}">`), `#${id} is a heading`);
  // a figure without an id is linked by its tag's name (state-link.js figureId), so its links did not change
  for (const tag of SHARED_ANCHORS) {
    assert.equal([...HTML.matchAll(new RegExp(`<attention-${tag}[\\s>]`, 'g'))].length, 1, `one attention-${tag}`);
    assert.match(HTML, new RegExp(`<attention-${tag}>`), `attention-${tag} has no id of its own`);
  }
});

test('served: the formulas are MathML in the page and each figure holds its picture; reader mode keeps both', () => {
  const dom = new JSDOM(SERVED, { url: 'http://127.0.0.1:8080/web/index.html' });
  const doc = dom.window.document;
  const sources = [...HTML.matchAll(/\bdata-tex="/g)].length;
  assert.ok(sources > 50, `${sources} formulas`);
  assert.equal(doc.querySelectorAll('[data-tex] > .katex > math').length, sources, 'a formula is not MathML');
  for (const { name, tag } of FIGURES) {
    const img = doc.querySelector(`${tag} > figure.picture > img`);
    assert.ok(img, `${tag} has no picture`);
    assert.equal(img.getAttribute('src'), `../dist/snapshots/${name}.svg`);
    assert.ok(existsSync(new URL(`../../dist/snapshots/${name}.svg`, import.meta.url)), `${name}.svg is missing`);
    assert.ok(Number(img.getAttribute('width')) > 300 && Number(img.getAttribute('height')) > 100, `${tag}'s picture has no size`);
    assert.ok(img.alt.length > 10, `${tag}'s picture has no alternative text`);
  }
  const reader = new JSDOM(new Readability(doc).parse().content).window.document;
  assert.ok(reader.querySelectorAll('math').length >= sources, 'reader mode drops formulas');
  assert.equal(reader.querySelectorAll('img[src*="/dist/snapshots/"]').length, FIGURES.length, 'reader mode drops pictures');
});

test('served: the link preview is a figure\'s PNG, absolute under ARTICLE_URL', async () => {
  const meta = (html, key) => html.match(new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)"`))?.[1];
  const image = meta(SERVED, 'og:image');
  assert.match(image, /^\.\.\/dist\/snapshots\/[\w-]+\.png$/);
  assert.ok(existsSync(new URL(`../../web/${image}`, import.meta.url)), `${image} is missing`);
  assert.equal(meta(SERVED, 'twitter:image'), image);
  assert.equal(meta(SERVED, 'twitter:card'), 'summary_large_image');
  const published = await articlePage(HTML, { url: 'https://example.org/attention/web/' });
  assert.equal(meta(published, 'og:image'), `https://example.org/attention/${image.slice(3)}`);
  assert.equal(meta(published, 'twitter:image'), meta(published, 'og:image'));
});
