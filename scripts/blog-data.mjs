// blog-data.mjs: what the Hugo shortcode and the Jekyll include know of each
// figure, written from web/figures/registry.js as data files the engines read
// (a Go template or Liquid cannot import JS). Run by build.sh after the
// pictures (scripts/snapshots.mjs); the files are build output (ignored by
// git) and ship in the npm package with the snippets.
//   web/embed/hugo/data/attention_figures.json       site.Data.attention_figures
//   web/embed/jekyll/_data/attention_figures.json    site.data.attention_figures
// Each maps a figure's name, in the article's order, to
//   tag       its element
//   title     its title (its English string table's), title_zh in Chinese
//   picture   its picture in dist/snapshots/: width and height (CSS pixels),
//             alt and alt_zh (the picture's own <desc>: what it shows, with
//             its numbers)
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

import { FIGURES } from '../web/figures/registry.js';

const FILES = ['web/embed/hugo/data/attention_figures.json', 'web/embed/jekyll/_data/attention_figures.json'];
const root = new URL('..', import.meta.url);
const read = (path) => readFileSync(new URL(path, root), 'utf8');
const ENTITIES = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const text = (xml) => xml.replace(/&(\w+);/g, (e, n) => ENTITIES[n] ?? e).replace(/\s+/g, ' ').trim();

/** A picture's size and <desc>. */
function picture(name) {
  const file = (suffix) => new URL(`dist/snapshots/${name}${suffix}`, root);
  if (!existsSync(file('.svg'))) throw new Error(`blog-data.mjs: dist/snapshots/${name}.svg is missing (scripts/snapshots.mjs makes it)`);
  const svg = (suffix) => readFileSync(file(suffix), 'utf8');
  const head = svg('.svg').match(/<svg\b[^>]*>/)[0];
  const [width, height] = ['width', 'height'].map((k) => Math.round(Number(head.match(new RegExp(`\\s${k}="([\\d.]+)"`))[1])));
  const desc = (suffix) => text(svg(suffix).match(/<desc\b[^>]*>([\s\S]*?)<\/desc>/)?.[1] ?? '');
  return { width, height, alt: desc('.svg'), alt_zh: desc('.zh-CN.svg') };
}

const figures = {};
for (const { name, tag } of FIGURES) {
  const strings = async (lang) => (await import(new URL(`web/figures/${name}/${name}.strings.${lang}.js`, root))).default;
  figures[name] = { tag, title: (await strings('en')).title, title_zh: (await strings('zh')).title, picture: picture(name) };
}
const json = `${JSON.stringify(figures, null, 2)}\n`;
for (const path of FILES) {
  const file = fileURLToPath(new URL(path, root));
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, json);
}
