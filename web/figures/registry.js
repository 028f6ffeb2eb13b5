// registry.js: the one list of figures, in the article's order. Everything
// that needs "every figure" (the bundle's entries and workers, the tests'
// loops, the Hugo and Jekyll snippets' allowed names, the embed README's
// index) reads it from here, or from a file generated from it. Adding a
// figure is its folder and one line here.
//   name     its folder is web/figures/<name>/, its element <name>.js there; its tag is attention-<name>
//   load     imports the element's module (which defines the tag); written out, so bundlers see it
//   math     it typesets TeX
//   worker   it runs <name>.worker.js from its folder, off the main thread: 'trains' (the full
//            engine) or 'measures' (the attention part alone)
//   example  it takes the page's own example from a <script type="application/json" data-example> child
const figure = (name, load, { math = true, worker = false, example = false } = {}) =>
  Object.freeze({ name, tag: `attention-${name}`, load, math, worker, example });

export const FIGURES = Object.freeze([
  figure('notation', () => import('./notation/notation.js')),
  figure('dot-product', () => import('./dot-product/dot-product.js')),
  figure('basic', () => import('./basic/basic.js'), { example: true }),
  figure('qkv', () => import('./qkv/qkv.js')),
  figure('soft-dictionary', () => import('./soft-dictionary/soft-dictionary.js'), { example: true }),
  figure('matrix', () => import('./matrix/matrix.js'), { example: true }),
  figure('tempering', () => import('./tempering/tempering.js')),
  figure('susan-mary', () => import('./susan-mary/susan-mary.js')),
  figure('multi-head-it', () => import('./multi-head-it/multi-head-it.js')),
  figure('multi-head-matmul', () => import('./multi-head-matmul/multi-head-matmul.js')),
  figure('induction', () => import('./induction/induction.js'), { math: false, worker: 'trains' }),
  figure('tiny-gpt', () => import('./tiny-gpt/tiny-gpt.js'), { math: false, worker: 'trains' }),
  figure('as-dense', () => import('./as-dense/as-dense.js')),
  figure('as-conv', () => import('./as-conv/as-conv.js')),
  figure('causal-mask', () => import('./causal-mask/causal-mask.js'), { example: true }),
  figure('cross', () => import('./cross/cross.js'), { example: true }),
  figure('cost', () => import('./cost/cost.js'), { worker: 'measures' }),
  figure('efficient', () => import('./efficient/efficient.js'), { worker: 'measures' }),
  figure('heatmap', () => import('./heatmap/heatmap.js'), { math: false }),
]);

/** Every figure's tag, in the article's order. */
export const TAGS = Object.freeze(FIGURES.map((f) => f.tag));
