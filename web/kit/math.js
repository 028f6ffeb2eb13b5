// math.js: formulas as MathML, which browsers draw natively (no fonts, no
// stylesheet, no typesetter in the page).
//
// Every formula the figures and the article show is known when the bundle is
// built: the $…$ of the string tables, the tex`…` of the figures' code and
// the data-tex of the article. scripts/math.mjs turns each into MathML with
// KaTeX at build time, and each figure's module hands its own to prerendered()
// when it loads. Only TeX that was not known then (a page's own strings, say)
// loads KaTeX, once, and is drawn when it arrives.

/** TeX written in code: tex`\frac{a}{b}` (no ${}: the build reads these literally). */
export const tex = String.raw;

import { coreMathml } from './mathml-core.js';

const MATHML = new Map();

/** Register formulas typeset at build time: {TeX: MathML}. */
export function prerendered(map) {
  for (const [source, mathml] of Object.entries(map)) MATHML.set(source, mathml);
}

// The TeX that had to wait for KaTeX, on a global a test can read (none should).
const LATE = (globalThis[Symbol.for('attention-wasm.lateTex')] ??= []);

let katex = null;
/** TeX -> MathML with KaTeX, loaded on first use (only for TeX the build did not see). */
async function typesetLate(source) {
  katex ??= import('katex').then((m) => m.default);
  return coreMathml((await katex).renderToString(source, { output: 'mathml', throwOnError: false, strict: false }));
}

// Put MathML for `source` into `el`: at once if it was typeset at build
// time, else the TeX as text until KaTeX has typeset it.
function fill(el, source, display) {
  const ready = MATHML.get(source);
  const put = (mathml) => {
    el.innerHTML = mathml;
    if (display) el.querySelector('math')?.setAttribute('display', 'block');
  };
  if (ready !== undefined) return put(ready);
  LATE.push(source);
  el.textContent = source;
  typesetLate(source).then(put, () => {}); // (the TeX stays as text)
}

/** A span (a block with `display`) holding the formula. */
export function mathSpan(source, display = false) {
  const span = document.createElement(display ? 'div' : 'span');
  span.className = 'math';
  fill(span, source, display);
  return span;
}

/** Typeset every element with data-tex under `container` (for pages); `map`: the page's formulas typeset at build time. */
export function typeset(container = document, map = {}) {
  prerendered(map);
  for (const el of container.querySelectorAll('[data-tex]')) fill(el, el.dataset.tex, el.dataset.display !== undefined);
}
