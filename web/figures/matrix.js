// <attention-matrix>: attention as a handful of matrix products, step by
// step, then the same on a small picture. Attributes: step (1..6), pixel (index).
import { FigureElement, defineFigure } from './figure-element.js';
import { h, s, replace } from './dom.js';
import { stepper } from './controls.js';
import { matrixView } from './matrix.view.js';
import { mathSpan } from './math.js';
import { num, pct } from './format.js';
import { maxAbs } from './scale.js';
import { steps, smallX, pictureAttention, PIXELS, STEPS, SIDE } from './matrix.model.js';

const TEX = [
  'X\\in\\mathbb{R}^{N\\times d}',
  'Q=XW^Q,\\;K=XW^K,\\;V=XW^V',
  'S=QK^T',
  'S/\\sqrt{d_k}',
  'P=\\mathrm{softmax}_{\\text{row}}\\!\\left(QK^T/\\sqrt{d_k}\\right)',
  'Y=PV',
];
// Per step: the operands shown (in this order), then the result it makes.
const OPERANDS = [[], ['X'], ['Q', 'K'], ['S'], ['scaled'], ['P', 'V']];
const RESULTS = [['X'], ['Q', 'K', 'V'], ['S'], ['scaled'], ['P'], ['Y']];
const NAMES = { X: 'X', Q: 'Q', K: 'K', V: 'V', S: 'QK\u1d40', scaled: 'QK\u1d40/\u221ad', P: 'P', Y: 'Y' };
const rgbCss = (c) => `rgb(${c.map((v) => Math.round(Math.max(0, Math.min(1, v)) * 255)).join(',')})`;
const CELL = 18;

class MatrixFigure extends FigureElement {
  static props = {
    step: { type: 'number', default: 6, min: 1, max: 6, integer: true },
    pixel: { type: 'number', default: 2 * SIDE + 9, min: 0, max: SIDE * SIDE - 1, integer: true },
  };

  static css = `
  .chain { display: flex; flex-wrap: wrap; gap: 12px 18px; align-items: flex-start; margin: 10px 0; min-height: 150px; }
  .chain .mat.now { outline: 2px solid var(--attention-accent); outline-offset: 4px; border-radius: 2px; }
  .chain .mat.later { display: none; }
  .eqline { min-height: 2.2em; }
  .pic { display: flex; flex-wrap: wrap; gap: 16px; align-items: flex-start; }
  .pic svg.img rect { cursor: pointer; }
  .pic svg.img rect.sel { stroke: var(--attention-fg); stroke-width: 3; }
  .swatch { display: inline-block; width: 2em; height: 2em; border-radius: 4px; vertical-align: middle; border: 1px solid var(--attention-border); }
  .sub { margin: 16px 0 4px; }`;

  build() {
    this.stepper = stepper({ steps: STEPS, value: this.state.step - 1, prop: 'step', t: this.t, onchange: (i) => this.set({ step: i + 1 }) });
    const pixelLabels = PIXELS.names;
    this.views = Object.fromEntries(Object.keys(NAMES).map((k) => [k, matrixView({ t: this.t,
      name: NAMES[k], cell: 36, values: true, shares: k === 'P',
      rowLabels: pixelLabels, colLabels: ['S', 'scaled', 'P'].includes(k) ? pixelLabels : ['r', 'g', 'b'],
    })]));
    this.eq = h('div', { class: 'eqline' });
    this.img = s('svg', { class: 'img', viewBox: `0 0 ${SIDE * CELL} ${SIDE * CELL}`, width: SIDE * CELL, role: 'img', 'aria-label': 'A 12 by 12 pixel picture: sky, sun, a house, grass' });
    this.pixels = [];
    for (let i = 0; i < SIDE * SIDE; i++) {
      const r = s('rect', { x: (i % SIDE) * CELL, y: Math.floor(i / SIDE) * CELL, width: CELL, height: CELL });
      r.addEventListener('click', () => this.set({ pixel: i }));
      this.pixels.push(r);
      this.img.append(r);
    }
    this.heat = matrixView({ t: this.t,
      name: 'attention', cell: CELL, digits: 3,
      onpick: (i, j) => this.set({ pixel: i * SIDE + j }),
      describe: () => 'Attention of the chosen pixel over the picture; arrow keys move, Enter chooses a pixel',
    });
    this.picInfo = h('div', { class: 'stack' });
    this.scaleNote = h('p', { class: 'note' });
    return h('div', {}, [
      h('p', { class: 'title' }, 'All at once: attention as matrix products'),
      this.stepper.el,
      this.eq,
      h('div', { class: 'chain' }, Object.values(this.views).map((v) => v.el)),
      h('p', { class: 'note' }, ['Four pixels, each a row of X with d = 3 features (red, green, blue, centred on 0), and ',
        mathSpan('W^Q=W^K=1.5\\,I,\\;W^V=I'), '. Each step shows what it takes and, outlined, what it makes; every matrix comes from a kernel call (matmul for the products, a row-wise softmax). '
        + 'Each row of P sums to 1, and so do its printed values.']),
      this.scaleNote,
      h('div', { class: 'sub' }, 'The same on a picture: N = 144 pixels, d = 3'),
      h('div', { class: 'pic' }, [this.img, this.heat.el, this.picInfo]),
    ]);
  }

  syncControls() {
    this.stepper?.set(this.state.step - 1);
  }

  render() {
    const k = this.state.step - 1;
    const st = steps(this.attn, smallX());
    const shown = [...OPERANDS[k], ...RESULTS[k]];
    // one colour scale for the feature matrices, one for the two score matrices, so scaling visibly shrinks them
    const group = (keys) => maxAbs(keys.flatMap((key) => Array.from(st[key].data)));
    const features = group(['X', 'Q', 'K', 'V', 'Y']);
    const scores = group(['S', 'scaled']);
    const max = { P: 1, S: scores, scaled: scores };
    for (const [key, view] of Object.entries(this.views)) {
      view.update(st[key], { max: max[key] ?? features });
      view.el.classList.toggle('later', !shown.includes(key));
      view.el.classList.toggle('now', RESULTS[k].includes(key));
      view.el.style.order = shown.indexOf(key);
    }
    replace(this.eq, mathSpan(TEX[k], true));
    this.scaleNote.textContent = `Colours: X, Q, K, V and Y share one scale, full at \u00b1${num(features)}; the two score matrices another, full at \u00b1${num(scores)}; P is full at 1.`;
    this.renderPicture();
  }

  renderPicture() {
    this.pic ??= pictureAttention(this.attn);
    const { rgb, weights, output } = this.pic;
    const p = this.state.pixel;
    const N = SIDE * SIDE;
    const row = weights.data.subarray(p * N, (p + 1) * N);
    this.pixels.forEach((r, i) => { r.style.fill = rgbCss(rgb[i]); r.classList.toggle('sel', i === p); });
    const grid = Array.from({ length: SIDE }, (_, y) => Array.from(row.subarray(y * SIDE, (y + 1) * SIDE)));
    this.heat.update(grid, { marks: new Set([`${Math.floor(p / SIDE)},${p % SIDE}`]) });
    const out = Array.from(output.data.subarray(p * 3, p * 3 + 3)).map((v) => (v + 1) / 2);
    const top = Math.max(...row);
    replace(this.picInfo, [
      h('div', {}, ['Pixel ', h('strong', {}, `(${p % SIDE + 1}, ${Math.floor(p / SIDE) + 1})`), ' ', h('span', { class: 'swatch', style: `background:${rgbCss(rgb[p])}` })]),
      h('div', {}, ['Its output, a weighted mix of all pixels: ', h('span', { class: 'swatch', style: `background:${rgbCss(out)}` })]),
      h('p', { class: 'note' }, `Click a pixel (or focus the heat map and use the arrow keys and Enter). Orange shows how much it attends to each pixel; full orange is the largest weight, ${pct(top)}.`),
    ]);
    const same = row.filter((w) => w > 0.5 / N).length;
    this.announce(`Step ${this.state.step}: ${STEPS[this.state.step - 1]}. Pixel ${p}: attends to ${same} of ${N} pixels with more than half the average weight; top weight ${pct(top)}.`);
  }
}

defineFigure('attention-matrix', MatrixFigure);
