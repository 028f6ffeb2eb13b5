// <attention-basic>: attention with no parameters. Four pixels; each output
// is a weighted sum of all inputs, weighted by softmax of dot products.
// Attributes: pixel="red|orange|blue|teal", x="r,g,b;r,g,b;r,g,b;r,g,b".
import { FigureElement, defineFigure } from './figure-element.js';
import { h, replace } from './dom.js';
import { choice, slider } from './controls.js';
import { matrixView } from './matrix.view.js';
import { mathSpan } from './math.js';
import { num, pcts } from './format.js';
import { basicModel, parseInputs, formatInputs, normalizeInputs, largestWeight, FEATURES, NAMES, LIMIT } from './basic.model.js';
import { row, toRows } from './mat.js';

class Basic extends FigureElement {
  static props = {
    pixel: { type: 'enum', values: NAMES, default: 'orange' },
    x: { type: 'string', default: '', normalize: normalizeInputs },
  };

  static css = `
  .flow { display: flex; flex-wrap: wrap; gap: 10px 14px; align-items: flex-start; margin: 8px 0; }
  .flow > .math { align-self: center; }
  .sw { display: inline-block; width: 22px; height: 22px; border-radius: 4px; border: 1px solid var(--attention-border); vertical-align: middle; }
  .swatches { display: grid; padding-top: 15px; }
  .swatches .sw { width: 17px; height: 17px; border-radius: 3px; margin: 5px 0; }
  .pair { display: flex; gap: 6px; align-items: flex-start; }
  .sum { display: grid; grid-template-columns: auto auto 1fr auto; gap: 4px 8px; align-items: center; max-width: 440px; font-variant-numeric: tabular-nums; }
  .bar { height: 12px; background: var(--attention-positive); border-radius: 3px; min-width: 1px; }
  .result { display: flex; align-items: center; gap: 8px; margin-top: 6px; font-weight: 600; }
  .result .sw { width: 34px; height: 34px; }
  .mat rect.mark { stroke: var(--attention-accent); stroke-width: 3; }`;

  build() {
    const view = (name, opts) => matrixView({ name, cell: 27, values: true, ...opts });
    const pick = (i) => this.set({ pixel: NAMES[i] });
    this.views = {
      X: view('X', { rowLabels: NAMES, colLabels: FEATURES, onpick: pick, digits: 1 }),
      W: view('W', { rowLabels: NAMES, colLabels: NAMES, onpick: pick, shares: true }),
      Y: view('Y', { rowLabels: NAMES, colLabels: FEATURES, onpick: pick, digits: 1 }),
    };
    this.inSw = h('div', { class: 'swatches', 'aria-hidden': 'true' });
    this.outSw = h('div', { class: 'swatches', 'aria-hidden': 'true' });
    this.pixelChoice = choice({
      label: 'Pixel', value: this.state.pixel, prop: 'pixel', options: NAMES.map((n) => ({ value: n, label: n })),
      onchange: (pixel) => this.set({ pixel }),
    });
    this.channels = FEATURES.map((f, c) => slider({
      label: f, min: -LIMIT, max: LIMIT, step: 0.05, value: 0, format: (v) => num(v),
      oninput: (v) => this.edit(c, v),
    }));
    this.sum = h('div', { class: 'sum' });
    this.result = h('div', { class: 'result' });
    return h('div', {}, [
      h('p', { class: 'title' }, 'Attention with no parameters: four pixels weigh each other'),
      h('div', { class: 'flow' }, [
        h('div', { class: 'pair' }, [this.inSw, this.views.X.el]),
        mathSpan('\\xrightarrow{\\mathrm{softmax}(XX^T)}'), this.views.W.el,
        mathSpan('\\xrightarrow{WX}'), h('div', { class: 'pair' }, [this.views.Y.el, this.outSw]),
      ]),
      h('div', { class: 'controls' }, [this.pixelChoice.el]),
      h('div', { class: 'controls' }, this.channels.map((c) => c.el)),
      h('div', { class: 'panel' }, [this.sumTitle = h('div', {}), this.sum, this.result]),
      h('p', { class: 'note' }, ['Each pixel is its colour, red, green and blue centred on zero (\u22121 none, +1 full). Row ',
        mathSpan('i'), ' of W holds ', mathSpan('w_{ij}=\\mathrm{softmax}_j(\\boldsymbol{x}_i^T\\boldsymbol{x}_j)'),
        ', with no scaling. Nothing here is learned, so the best match of a pixel is usually itself and the largest weight sits on the diagonal: ',
        mathSpan('\\boldsymbol{x}_i^T\\boldsymbol{x}_i=\\lVert\\boldsymbol{x}_i\\rVert^2'), ', and another pixel beats that only if it reaches further along ',
        mathSpan('\\boldsymbol{x}_i'), '\u2019s own direction (try orange at (0.3, 0, 0)). '
        + 'Change a pixel’s colour and watch every row follow. Click a square or focus a matrix and press Enter to pick a pixel. Colours are full at \u00b11.']),
    ]);
  }

  rows() {
    return parseInputs(this.state.x);
  }

  edit(c, v) {
    const rows = this.rows();
    rows[NAMES.indexOf(this.state.pixel)][c] = v;
    this.set({ x: formatInputs(rows) });
  }

  syncControls() {
    if (!this.pixelChoice) return;
    this.pixelChoice.set(this.state.pixel);
    const x = this.rows()[NAMES.indexOf(this.state.pixel)];
    this.channels.forEach((c, k) => c.set(x[k]));
  }

  render() {
    const j = NAMES.indexOf(this.state.pixel);
    const m = basicModel(this.attn, this.rows());
    const marks = new Set([0, 1, 2].map((c) => `${j},${c}`));
    this.views.X.update(m.X, { max: 1, marks });
    this.views.W.update(m.weights, { max: 1, marks: new Set(NAMES.map((_, i) => `${j},${i}`)) });
    this.views.Y.update(m.output, { max: 1, marks });
    const sw = (color) => h('span', { class: 'sw', style: `background:${color}` });
    replace(this.inSw, m.colors.inputs.map(sw));
    replace(this.outSw, m.colors.outputs.map(sw));
    const w = row(m.weights, j);
    const shown = pcts(w);
    replace(this.sumTitle, ['The output of ', h('strong', {}, NAMES[j]), ' is a weighted sum of all four inputs:']);
    replace(this.sum, NAMES.flatMap((name, i) => [
      sw(m.colors.inputs[i]), h('span', {}, name),
      h('div', { class: 'bar', style: `width:${(100 * w[i]).toFixed(1)}%` }), h('span', {}, shown[i]),
    ]));
    const y = toRows(m.output)[j];
    replace(this.result, [sw(m.colors.outputs[j]), `y = (${y.map((v) => num(v)).join(', ')}); ${largestWeight(w, j)}.`]);
    this.announce(`The output of ${NAMES[j]} takes ${NAMES.map((n, i) => `${shown[i]} from ${n}`).join(', ')}: ${largestWeight(w, j)}.`);
  }
}

defineFigure('attention-basic', Basic);
