// math.mjs: every formula the figures and the article show, typeset to
// MathML at build time (web/kit/math.js says why). Used by bundle.mjs and
// article.mjs (the article's data-tex, typeset into the page itself).
//   mathml(tex)        TeX -> MathML
//   figureMath(name)   {TeX: MathML} for one figure: the $…$ of its string
//                      tables (both languages) and the tex`…` of its code
import katex from 'katex';
import { coreMathml } from '../web/kit/mathml-core.js';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = new URL('../', import.meta.url);

/** TeX -> MathML (KaTeX's MathML output: no fonts or stylesheet needed). */
export const mathml = (source) => coreMathml(katex.renderToString(source, { output: 'mathml', throwOnError: false, strict: false }));

const typesetAll = (sources) => Object.fromEntries([...new Set(sources)].sort().map((s) => [s, mathml(s)]));

/** The $…$ of a string-table text (as kit/rich.js splits it). */
export const dollarTex = (text) => [...text.matchAll(/\$([^$]+)\$/g)].map((m) => m[1]);

/** The tex`…` literals of a source file (String.raw: the text between the backticks is the TeX). */
export function codeTex(source) {
  return [...source.matchAll(/\btex`([^`]*)`/g)].map((m) => {
    if (m[1].includes('${')) throw new Error(`math.mjs: tex\`${m[1]}\` has a \${}: the build can only typeset fixed TeX`);
    return m[1];
  });
}

/** Every string of a string table (functions give none: they build their text from pieces). */
const tableTexts = (table) => Object.values(table).filter((v) => typeof v === 'string');

/** {TeX: MathML} for the figure `name` (its folder under web/figures/). */
export async function figureMath(name) {
  const dir = new URL(`web/figures/${name}/`, ROOT);
  const sources = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.js'))) {
    if (/\.strings\.\w+\.js$/.test(file)) { // <name>.strings.<lang>.js
      for (const text of tableTexts((await import(new URL(file, dir))).default)) sources.push(...dollarTex(text));
    } else {
      sources.push(...codeTex(readFileSync(new URL(file, dir), 'utf8')));
    }
  }
  return typesetAll(sources);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { FIGURES } = await import('../web/figures/registry.js');
  for (const { name } of FIGURES) console.log(name, Object.keys(await figureMath(name)).length);
}
