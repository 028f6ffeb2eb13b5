// <attention-basic>: attention with no parameters. Four pixels; each output
// is a weighted sum of all inputs, weighted by softmax of dot products.
// Attributes: pixel="red|orange|blue|teal", x="r,g,b;r,g,b;r,g,b;r,g,b"; a
// page's own tokens and vectors through a data-example JSON child (parseExample).
import { props } from './basic.props.js';
import { FigureElement, defineFigure } from '../../kit/figure-element.js';
import { h, replace, setStyle, setText } from '../../kit/dom.js';
import { choice, slider } from '../../kit/controls.js';
import { matrixView } from '../../kit/draw/matrix-view.js';
import { mathSpan, tex } from '../../kit/math.js';
import { rich } from '../../kit/rich.js';
import { num, pcts } from '../../kit/format.js';
import { basicModel, parseInputs, formatInputs, parseExample, largestWeight, DEFAULT_X, FEATURES, NAMES, LIMIT } from './basic.model.js';
import { row, toRows } from '../../kit/mat.js';

class Basic extends FigureElement {
  static strings = { en: () => import('./basic.strings.en.js'), zh: () => import('./basic.strings.zh.js') };
  // the inputs: the four pixels (their names are keys of the table), or a page's own tokens
  example = null;

  static props = props;

  static css = `
  .choice .opts { flex-wrap: wrap; } /* a page's example may have eight inputs */
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
  .mat rect.mark { stroke-width: 3; }`;

  useExample(data) {
    this.example = parseExample(data);
  }

  // With a page's example the state's pixel is one of its tokens (set by
  // the figure only), which an attribute or link cannot carry.
  linkable() {
    return !this.example;
  }

  /** The inputs' values (what the state's pixel holds) and their names as shown. */
  get inputs() {
    const mine = this.example;
    return mine ? { ids: mine.names, names: mine.names, base: mine.rows } : { ids: NAMES, names: NAMES.map((n) => this.t(n)), base: DEFAULT_X };
  }

  /** Index of the chosen input: the default's place when the state names none of them. */
  chosen() {
    const { ids } = this.inputs;
    const i = ids.indexOf(this.state.pixel);
    return i >= 0 ? i : Math.min(NAMES.indexOf(Basic.props.pixel.default), ids.length - 1);
  }

  build() {
    const view = (name, opts) => matrixView({ t: this.t, name, cell: 27, values: true, ...opts });
    const { ids, names } = this.inputs;
    const pick = (i) => this.set({ pixel: ids[i] });
    const features = FEATURES.map((f) => this.t(f));
    this.titleFor = -1; // the input the sum's title names (render)
    this.views = {
      X: view('X', { rowLabels: names, colLabels: features, onpick: pick, digits: 1 }),
      W: view('W', { rowLabels: names, colLabels: names, onpick: pick, shares: true }),
      Y: view('Y', { rowLabels: names, colLabels: features, onpick: pick, digits: 1 }),
    };
    // made once; render only recolours and resizes them
    const sw = () => h('span', { class: 'sw' });
    this.inSwatches = names.map(sw);
    this.outSwatches = names.map(sw);
    this.inSw = h('div', { class: 'swatches', 'aria-hidden': 'true' }, this.inSwatches);
    this.outSw = h('div', { class: 'swatches', 'aria-hidden': 'true' }, this.outSwatches);
    this.terms = names.map((n) => ({ sw: sw(), bar: h('div', { class: 'bar' }), share: h('span') }));
    this.resultSw = sw();
    this.resultText = h('span');
    this.pixelChoice = choice({
      label: this.t(this.example ? 'token' : 'pixel'), value: ids[this.chosen()], prop: 'pixel', options: ids.map((n, i) => ({ value: n, label: names[i] })),
      onchange: (pixel) => this.set({ pixel }),
    });
    this.channels = features.map((f, c) => slider({
      label: f, min: -LIMIT, max: LIMIT, step: 0.05, value: 0, format: (v) => num(v),
      oninput: (v) => this.edit(c, v),
    }));
    this.sum = h('div', { class: 'sum' }, this.terms.flatMap((term, i) => [term.sw, h('span', {}, names[i]), term.bar, term.share]));
    this.result = h('div', { class: 'result' }, [this.resultSw, this.resultText]);
    return h('div', {}, [
      h('p', { class: 'title' }, this.example ? this.t('titleMine', { n: ids.length }) : this.t('title')),
      h('div', { class: 'flow' }, [
        h('div', { class: 'pair' }, [this.inSw, this.views.X.el]),
        mathSpan(tex`\mathop{\longrightarrow}\limits^{\mathrm{softmax}(XX^T)}`), this.views.W.el,
        mathSpan(tex`\mathop{\longrightarrow}\limits^{WX}`), h('div', { class: 'pair' }, [this.views.Y.el, this.outSw]),
      ]),
      h('div', { class: 'controls' }, [this.pixelChoice.el]),
      h('div', { class: 'controls' }, this.channels.map((c) => c.el)),
      h('div', { class: 'panel' }, [this.sumTitle = h('div', {}), this.sum, this.result]),
      h('p', { class: 'note' }, rich(this.t(this.example ? 'noteMine' : 'note'))),
    ]);
  }

  rows() {
    return parseInputs(this.state.x, this.inputs.base);
  }

  edit(c, v) {
    const rows = this.rows();
    rows[this.chosen()][c] = v;
    this.set({ x: formatInputs(rows) });
  }

  rehearsal() {
    const [rows, j] = [this.rows(), this.chosen()];
    rows[j][0] = rows[j][0] > 0 ? -0.5 : 0.5; // (a channel's slider)
    return { x: formatInputs(rows) };
  }

  syncControls() {
    if (!this.pixelChoice) return;
    const j = this.chosen();
    this.pixelChoice.set(this.inputs.ids[j]);
    const x = this.rows()[j];
    this.channels.forEach((c, k) => c.set(x[k]));
  }

  render() {
    const j = this.chosen();
    const { names } = this.inputs;
    const m = basicModel(this.attn, this.rows());
    const marks = new Set([0, 1, 2].map((c) => `${j},${c}`));
    this.views.X.update(m.X, { max: 1, marks });
    this.views.W.update(m.weights, { max: 1, marks: new Set(names.map((_, i) => `${j},${i}`)) });
    this.views.Y.update(m.output, { max: 1, marks });
    this.inSwatches.forEach((el, i) => setStyle(el, 'background', m.colors.inputs[i]));
    this.outSwatches.forEach((el, i) => setStyle(el, 'background', m.colors.outputs[i]));
    const w = row(m.weights, j);
    const shown = pcts(w);
    const name = (i) => names[i];
    if (this.titleFor !== j) replace(this.sumTitle, rich(this.t(this.example ? 'sumTitleMine' : 'sumTitle', { name: name(j), n: names.length })));
    this.titleFor = j;
    this.terms.forEach((term, i) => {
      setStyle(term.sw, 'background', m.colors.inputs[i]);
      setStyle(term.bar, 'width', `${(100 * w[i]).toFixed(1)}%`);
      setText(term.share, shown[i]);
    });
    const y = toRows(m.output)[j];
    const top = largestWeight(w, j);
    const largest = this.t(top.key, { names: top.tied?.map(name), share: top.share, name: name(j), winner: top.winner === undefined ? '' : name(top.winner) });
    setStyle(this.resultSw, 'background', m.colors.outputs[j]);
    setText(this.resultText, this.t('result', { y: y.map((v) => num(v)).join(', '), largest }));
    this.announce(this.t('summary', { name: name(j), names, shares: shown, largest }));
  }
}

defineFigure('attention-basic', Basic);
