// article.mjs: web/index.html, the article as it is served, made from its
// source web/article.html (edit that one):
//   - every data-tex formula typeset to MathML in the page itself (KaTeX at
//     build time), so reader mode, feeds and printouts keep it and the page
//     runs no typesetter;
//   - in each figure, before it draws (or where it never does: no
//     JavaScript, a feed, a printout), its picture: dist/snapshots/<name>.svg,
//     made by the build, with the source's sentence as its caption;
//   - og: and twitter: addresses made absolute under ARTICLE_URL, the
//     article's public address, when it is set (link previews need them
//     absolute; without it they stay relative to the page).
// Run by build.sh after the bundle and the pictures.
//   node scripts/article.mjs
//   ARTICLE_URL=https://example.org/attention/web/ node scripts/article.mjs
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { FIGURES } from '../web/figures/registry.js';
import { mathml } from './math.mjs';

const ROOT = new URL('../', import.meta.url);
const ENTITIES = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const unescape = (text) => text.replace(/&(\w+);/g, (e, n) => ENTITIES[n] ?? e);
const escape = (text) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The picture of figure `name` as the page links it, and its size in CSS pixels (from its <svg>). */
export function picture(name) {
  const file = new URL(`dist/snapshots/${name}.svg`, ROOT);
  if (!existsSync(file)) throw new Error(`article.mjs: ${fileURLToPath(file)} is missing (bash build.sh makes it)`);
  const svg = readFileSync(file, 'utf8').match(/<svg\b[^>]*>/)?.[0] ?? '';
  const [width, height] = ['width', 'height'].map((k) => Number(svg.match(new RegExp(`\\s${k}="([\\d.]+)"`))?.[1]));
  if (!(width > 0 && height > 0)) throw new Error(`article.mjs: dist/snapshots/${name}.svg has no width and height`);
  return { src: `../dist/snapshots/${name}.svg`, width: Math.round(width), height: Math.round(height) };
}

/** A figure's English title (its string table's), for its picture's alternative text. */
const title = async (name) => (await import(new URL(`web/figures/${name}/${name}.strings.en.js`, ROOT))).default.title;

/** The served page's HTML from the source's. */
export async function articlePage(source, { url = process.env.ARTICLE_URL } = {}) {
  let html = source.replace(/<span data-tex="([^"]*)"( data-display)?>[^<]*<\/span>/g, (m, tex, display) => {
    let math = mathml(unescape(tex));
    if (display) math = math.replace('<math ', '<math display="block" ');
    return `<span data-tex="${tex}"${display ?? ''}>${math}</span>`;
  });
  for (const { name, tag } of FIGURES) {
    const element = new RegExp(`<${tag}((?: id="[^"]*")?)>\\s*<p>([\\s\\S]*?)</p>\\s*</${tag}>`, 'g');
    const found = [...html.matchAll(element)].length;
    const any = [...html.matchAll(new RegExp(`<${tag}[\\s>]`, 'g'))].length;
    // a figure with attributes of its own would need a picture made with them (the snapshot command)
    if (found !== any) throw new Error(`article.mjs: <${tag}> in web/article.html is not <${tag}( id="…")><p>its sentence</p></${tag}>`);
    if (!any) continue;
    const { src, width, height } = picture(name);
    const alt = escape(await title(name));
    html = html.replace(element, (m, id, sentence) => `<${tag}${id}><figure class="picture"><img src="${src}" alt="${alt}" width="${width}" height="${height}" loading="lazy"><figcaption>${sentence}</figcaption></figure></${tag}>`);
  }
  if (url) {
    html = html.replace(/(<meta (?:property="og:[\w:]+"|name="twitter:[\w:]+") content=")([^"]*)(")/g, (m, a, value, b) =>
      (/^(?:\.\.?\/|\/)/.test(value) ? `${a}${new URL(value, url).href}${b}` : m));
  }
  return html.replace(/^<!doctype html>\n/i, (d) => `${d}<!-- made by scripts/article.mjs from web/article.html: edit that one -->\n`);
}

/** Write web/index.html from web/article.html; -> its length. */
export async function writeArticle() {
  const html = await articlePage(readFileSync(new URL('web/article.html', ROOT), 'utf8'));
  writeFileSync(new URL('web/index.html', ROOT), html);
  return html.length;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(`article.mjs: web/index.html, ${await writeArticle()} characters`);
