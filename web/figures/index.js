// index.js: dist/attention-figures.js, the one script a blogger includes.
// It defines no figure itself: it imports a figure's own module
// (dist/figures/<name>.js, with the shared chunks it needs, loaded once
// however many figures a page has) when the page uses that figure's tag
// (kit/autoload.js). `import 'attention-wasm/figures'` does the same in a
// bundler; `import 'attention-wasm/figures/<name>'` defines one figure.
import { FIGURES } from './registry.js';
import { autoload } from '../kit/autoload.js';

autoload(FIGURES);

/** The engine every figure on the page shares: a promise of loadAttention()'s object. */
export const engine = () => import('../kit/engine.js').then((m) => m.engine());

/** Typeset the elements with data-tex under `root` (`formulas`: {TeX: MathML} made at build time); resolves when done. */
export const typeset = (root = document, formulas = {}) => import('../kit/math.js').then((m) => m.typeset(root, formulas));
