// article-text.mjs: the text <attention-tiny-gpt> learns from: the prose of
// the article's <article> (web/article.html, the source of web/index.html) (figures' fallback descriptions included, tags,
// math markup and entities removed), lower-cased, with every character
// outside the model's alphabet dropped and runs of white space made one
// space. Run by every build.sh; writes build/article-text.js, which the
// figure's worker, its tests and the bench import as '#article-text'
// (package.json's "imports").
//   node scripts/article-text.mjs
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { ALPHABET } from '../web/figures/tiny-gpt/tiny-gpt.model.js';

const ENTITIES = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', mdash: '-', ndash: '-', hellip: '...', rsquo: "'", lsquo: "'", ldquo: '"', rdquo: '"' };

/** The model's text from the page's HTML. */
export function articleText(html) {
  const article = html.match(/<article>([\s\S]*)<\/article>/)?.[1] ?? html;
  const text = article
    .replace(/<(script|style|math|svg)[\s\S]*?<\/\1>/g, ' ')
    .replace(/<\/(p|h\d|li|figcaption)>/g, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x?[0-9a-f]+|\w+);/gi, (m, e) => {
      if (e[0] !== '#') return ENTITIES[e.toLowerCase()] ?? ' ';
      const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return String.fromCodePoint(code);
    })
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'").replace(/[\u201c\u201d]/g, '"').replace(/[\u2013\u2014]/g, '-');
  return [...text].map((c) => (ALPHABET.includes(c) ? c : /\s/.test(c) ? ' ' : '')).join('').replace(/ +/g, ' ').trim();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = new URL('../', import.meta.url);
  const text = articleText(readFileSync(new URL('web/article.html', root), 'utf8'));
  const out = `// article-text.js: made by scripts/article-text.mjs from web/article.html (do not edit).
export const ARTICLE_TEXT = ${JSON.stringify(text)};
`;
  mkdirSync(new URL('build/', root), { recursive: true });
  writeFileSync(new URL('build/article-text.js', root), out);
  console.log(`article-text.mjs: ${text.length} characters of the article for <attention-tiny-gpt>`);
}
