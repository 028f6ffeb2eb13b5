// blog-data.mjs: the figures the Hugo shortcode and the Jekyll include accept,
// written from web/figures/registry.js as data files the engines read (a Go
// template or Liquid cannot import JS). Run by build.sh; the files are build
// output (ignored by git) and ship in the npm package with the snippets.
//   web/embed/hugo/data/attention_figures.json       site.Data.attention_figures
//   web/embed/jekyll/_data/attention_figures.json    site.data.attention_figures
// Each maps a figure's name to its tag, in the article's order.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

import { FIGURES } from '../web/figures/registry.js';

const FILES = ['web/embed/hugo/data/attention_figures.json', 'web/embed/jekyll/_data/attention_figures.json'];

const root = new URL('..', import.meta.url);
const json = `${JSON.stringify(Object.fromEntries(FIGURES.map((f) => [f.name, f.tag])), null, 2)}\n`;
for (const path of FILES) {
  const file = fileURLToPath(new URL(path, root));
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, json);
}
