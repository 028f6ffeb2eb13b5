// math.js: KaTeX typesetting for figures and pages.
//
// KaTeX's CSS rules go into each shadow root that shows math; its
// @font-face rules go into the document once (fonts declared inside a
// shadow root are ignored by some engines). `attention-katex-css` is made by
// scripts/bundle.mjs: KaTeX's stylesheet with only the woff2 fonts we ship,
// their URLs next to the bundle.
import katex from 'katex';
import { rulesCss, fontCss } from 'attention-katex-css';
import { adopt } from './sheets.js';

/** TeX source -> HTML string (with MathML for screen readers). */
export function tex(source, display = false) {
  return katex.renderToString(source, { displayMode: display, throwOnError: false, strict: false });
}

/** Make math render inside `root` (a ShadowRoot or document). */
export function mathStyles(root) {
  adopt(document, fontCss);
  adopt(root, rulesCss);
}

/** Typeset every element with data-tex under `container` (for pages). */
export function typeset(container = document) {
  mathStyles(document);
  for (const el of container.querySelectorAll('[data-tex]')) {
    el.innerHTML = tex(el.dataset.tex, el.dataset.display !== undefined);
  }
}

/** A span holding typeset math. */
export function mathSpan(source, display = false) {
  const span = document.createElement(display ? 'div' : 'span');
  span.className = 'math';
  span.innerHTML = tex(source, display);
  return span;
}
