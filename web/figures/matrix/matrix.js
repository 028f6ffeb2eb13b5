// <attention-matrix>: attention as a handful of matrix products, step by
// step, then the same on a small picture. Attributes: step (1..6), pixel (index).
import { props } from './matrix.props.js';
import { FigureElement, defineFigure } from '../../kit/figure-element.js';
import { h, s, replace, setText } from '../../kit/dom.js';
import { stepper } from '../../kit/controls.js';
import { matrixView } from '../../kit/draw/matrix-view.js';
import { keepIn, keepOut, layOut, showOne } from '../../kit/keep.js';
import { mathSpan, tex } from '../../kit/math.js';
import { rich } from '../../kit/rich.js';
import { num, pct } from '../../kit/format.js';
import { maxAbs } from '../../kit/draw/scale.js';
import { theme } from '../../kit/draw/colors.js';
import { steps, smallX, pictureAttention, parseExample, PIXELS, STEPS, SIDE } from './matrix.model.js';

const TEX = [
  tex`X\in\mathbb{R}^{N\times d}`,
  tex`Q=XW^Q,\;K=XW^K,\;V=XW^V`,
  tex`S=QK^T`,
  tex`S/\sqrt{d_k}`,
  tex`P=\mathrm{softmax}_{\text{row}}\!\left(QK^T/\sqrt{d_k}\right)`,
  tex`Y=PV`,
];
// Per step: the operands shown (in this order), then the result it makes.
const OPERANDS = [[], ['X'], ['Q', 'K'], ['S'], ['scaled'], ['P', 'V']];
const RESULTS = [['X'], ['Q', 'K', 'V'], ['S'], ['scaled'], ['P'], ['Y']];
const NAMES = { X: 'X', Q: 'Q', K: 'K', V: 'V', S: 'QK\u1d40', scaled: 'QK\u1d40/\u221ad', P: 'P', Y: 'Y' };
const SCORES = ['S', 'scaled', 'P']; // N x N: tokens label their columns too
const rgbCss = (c) => `rgb(${c.map((v) => Math.round(Math.max(0, Math.min(1, v)) * 255)).join(',')})`;
const CELL = 18;

class MatrixFigure extends FigureElement {
  static strings = { en: () => import('./matrix.strings.en.js'), zh: () => import('./matrix.strings.zh.js') };
  // the step-through's example: the four pixels, or a page's own tokens
  example = null;

  static props = props;

  static css = `
  .chain { display: flex; flex-wrap: wrap; gap: 12px 18px; align-items: flex-start; margin: 10px 0; min-height: 150px; }
  .chain > [data-kept] { position: absolute; } /* (out of sight and out of the row: no gap for it) */
  .chain .mat.now { outline: 2px solid var(--attention-accent); outline-offset: 4px; border-radius: 2px; }
  .eqline { min-height: 2.2em; container-type: inline-size; }
  @container (max-width: 22rem) { .eqline .math { font-size: 0.85em; } } /* (Q, K and V's equation fits 360 px) */
  .pic { display: flex; flex-wrap: wrap; gap: 16px; align-items: flex-start; }
  .pic svg.img rect { cursor: pointer; }
  .pic svg.img rect.sel { stroke: var(--attention-fg); stroke-width: 3; }
  .swatch { display: inline-block; width: 2em; height: 2em; border-radius: 4px; vertical-align: middle; border: 1px solid var(--attention-border); }
  .sub { margin: 16px 0 4px; }`;

  useExample(data) {
    this.example = parseExample(data);
  }

  build() {
    const mine = this.example;
    const names = mine?.names ?? PIXELS.names;
    this.X = mine?.X ?? smallX();
    this.painted = null; // what the matrices and the picture were last drawn for (render)
    this.stepper = stepper({ steps: STEPS.map((k) => this.t(k)), value: this.state.step - 1, prop: 'step', t: this.t, onchange: (i) => this.set({ step: i + 1 }) });
    const cell = names.length > 5 ? 30 : 36; // eight columns of eight-letter labels still fit 360 px
    const features = mine ? Array.from({ length: this.X.cols }, (_, j) => String(j + 1)) : ['r', 'g', 'b'];
    this.views = Object.fromEntries(Object.keys(NAMES).map((k) => [k, matrixView({ t: this.t,
      name: NAMES[k], cell, values: true, shares: k === 'P',
      rowLabels: names, colLabels: SCORES.includes(k) ? names : features,
    })]));
    this.eq = h('div', { class: 'eqline' });
    this.equations = TEX.map(() => null); // typeset once per step, when first shown
    // crisp edges: squares that meet at a fraction of a pixel would let the background show
    // between them (Firefox draws a faint seam between rows)
    this.img = s('svg', { class: 'img', viewBox: `0 0 ${SIDE * CELL} ${SIDE * CELL}`, width: SIDE * CELL, role: 'img', 'aria-label': this.t('pictureLabel'), 'shape-rendering': 'crispEdges' });
    this.pixels = [];
    for (let i = 0; i < SIDE * SIDE; i++) {
      const r = s('rect', { x: (i % SIDE) * CELL, y: Math.floor(i / SIDE) * CELL, width: CELL, height: CELL });
      r.addEventListener('click', () => this.set({ pixel: i }));
      this.pixels.push(r);
      this.img.append(r);
    }
    this.heat = matrixView({ t: this.t,
      name: this.t('heatName'), cell: CELL, digits: 3,
      onpick: (i, j) => this.set({ pixel: i * SIDE + j }),
      describe: () => this.t('heatLabel'),
    });
    this.picInfo = h('div', { class: 'stack' });
    this.scaleNote = h('p', { class: 'note' });
    const intro = mine ? this.t('tokensIntro', { n: names.length, d: this.X.cols }) : this.t('pixelsIntro');
    return h('div', {}, [
      h('p', { class: 'title' }, this.t('title')),
      this.stepper.el,
      this.eq,
      h('div', { class: 'chain' }, Object.values(this.views).map((v) => v.el)),
      h('p', { class: 'note' }, [...rich(intro), this.language === 'zh' ? '' : ' ', ...rich(this.t('stepsNote'))]),
      this.scaleNote,
      h('div', { class: 'sub' }, this.t('pictureTitle')),
      h('div', { class: 'pic' }, [this.img, this.heat.el, this.picInfo]),
    ]);
  }

  syncControls() {
    this.stepper?.set(this.state.step - 1);
  }

  // A step change only shows and hides matrices: their numbers (one kernel
  // run) and colours are drawn when a matrix is first shown in a theme (the
  // first drawing paints one, not all eight), and the picture only when its
  // pixel or the theme changes.
  render() {
    const k = this.state.step - 1;
    const scheme = theme(this.shadowRoot); // the same object while the theme stays
    const was = this.painted ?? {};
    const shown = [...OPERANDS[k], ...RESULTS[k]];
    if (was.scheme !== scheme) this.inTheme = new Set(); // (the views painted in this theme)
    this.paintMatrices(shown.filter((key) => !this.inTheme.has(key)));
    for (const [key, view] of Object.entries(this.views)) {
      keepOut(view.el, !shown.includes(key)); // (laid out as it was when shown again)
      view.el.classList.toggle('now', RESULTS[k].includes(key));
      view.el.style.order = shown.indexOf(key);
    }
    this.equations[k] ??= mathSpan(TEX[k], true);
    showOne(this.eq, this.equations[k]); // (each step's equation laid out once)
    if (was.scheme !== scheme || was.pixel !== this.state.pixel) this.renderPicture();
    this.painted = { scheme, pixel: this.state.pixel };
    this.announce(this.t('summary', { step: this.state.step, name: this.t(STEPS[k]), ...this.pictureSummary }));
    this.prepare();
  }

  // The matrices and equations no step has shown yet, made one per task
  // after a drawing: a reader's first visit to a step then finds them ready
  // (at a phone's speed such a visit took two to three times a later one).
  prepare() {
    this.inTasks(() => {
      const key = Object.keys(this.views).find((v) => !this.inTheme.has(v));
      const k = this.equations.findIndex((e) => !e);
      if (key !== undefined) this.paintMatrices([key]);
      else if (k >= 0) layOut(keepIn(this.eq, this.equations[k] = mathSpan(TEX[k], true)));
      return key !== undefined || k >= 0;
    });
  }

  // paint the views of `keys` (the matrices' scales are all eight's)
  paintMatrices(keys) {
    this.st ??= steps(this.attn, this.X);
    const st = this.st;
    // one colour scale for the feature matrices, one for the two score matrices, so scaling visibly shrinks them
    const group = (of) => maxAbs(of.flatMap((key) => Array.from(st[key].data)));
    this.scales ??= { features: group(['X', 'Q', 'K', 'V', 'Y']), scores: group(['S', 'scaled']) };
    const { features, scores } = this.scales;
    const max = { P: 1, S: scores, scaled: scores };
    for (const key of keys) {
      this.views[key].update(st[key], { max: max[key] ?? features });
      this.inTheme.add(key);
    }
    setText(this.scaleNote, this.t('scaleNote', { features: num(features), scores: num(scores) }));
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
      h('div', {}, [...rich(this.t('pixelAt', { x: p % SIDE + 1, y: Math.floor(p / SIDE) + 1 })), ' ', h('span', { class: 'swatch', style: `background:${rgbCss(rgb[p])}` })]),
      h('div', {}, [this.t('pixelOutput'), ' ', h('span', { class: 'swatch', style: `background:${rgbCss(out)}` })]),
      h('p', { class: 'note' }, this.t('pictureNote', { top: pct(top) })),
    ]);
    this.pictureSummary = { pixel: p, same: row.filter((w) => w > 0.5 / N).length, n: N, top: pct(top) };
  }
}

defineFigure('attention-matrix', MatrixFigure);
