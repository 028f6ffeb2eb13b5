// registry.js: the one list of figures, in the article's order. Everything
// that needs "every figure" (the bundle's entries and workers, the tests'
// loops, the Hugo and Jekyll snippets' allowed names, the embed README's
// index) reads it from here, or from a file generated from it. Adding a
// figure is its files and one line here.
//   name     the figure's files are web/figures/<name>*.js; its tag is attention-<name>
//   math     it typesets TeX
//   worker   it runs web/figures/<name>.worker.js (trains or measures off the main thread)
//   example  it takes the page's own example from a <script type="application/json" data-example> child
const figure = (name, { math = true, worker = false, example = false } = {}) =>
  Object.freeze({ name, tag: `attention-${name}`, math, worker, example });

export const FIGURES = Object.freeze([
  figure('notation'),
  figure('dot-product'),
  figure('basic', { example: true }),
  figure('qkv'),
  figure('soft-dictionary', { example: true }),
  figure('matrix', { example: true }),
  figure('tempering'),
  figure('susan-mary'),
  figure('multi-head-it'),
  figure('multi-head-matmul'),
  figure('induction', { worker: true }),
  figure('tiny-gpt', { math: false, worker: true }),
  figure('as-dense'),
  figure('as-conv'),
  figure('causal-mask', { example: true }),
  figure('cross', { example: true }),
  figure('cost', { worker: true }),
  figure('efficient', { worker: true }),
  figure('heatmap', { math: false }),
]);

/** Every figure's tag, in the article's order. */
export const TAGS = Object.freeze(FIGURES.map((f) => f.tag));
