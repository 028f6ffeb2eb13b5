// <attention-as-conv>: a 1-D convolution as k attention heads, one per
// relative offset; a temperature slider goes from soft attention to the hard
// limit where the layer is exactly the convolution.
// Attributes: temperature="0.001..10", k="3|5", signal="spike|step|bumps",
// kernel="w1,w2,..." (k numbers).
import { props, parseKernel, SIGNALS } from './as-conv.props.js';
import { FigureElement, defineFigure } from '../../kit/figure-element.js';
import { h, s, replace, setText, steady } from '../../kit/dom.js';
import { choice, slider } from '../../kit/controls.js';
import { matrixView } from '../../kit/draw/matrix-view.js';
import { cssRgb, labelColor, rgbText, scaleRgb } from '../../kit/draw/colors.js';
import { paintLines } from '../../kit/draw/drawing.js';
import { rich } from '../../kit/rich.js';
import { morph } from '../../kit/keep.js';
import { num, gap } from '../../kit/format.js';
import { convModel } from './as-conv.model.js';

const [W, H] = [560, 190];
const headColor = (r) => `var(--attention-head-${r + 1}, var(--attention-muted))`;


class AsConv extends FigureElement {
  static strings = { en: () => import('./as-conv.strings.en.js'), zh: () => import('./as-conv.strings.zh.js') };

  static props = props;

  static css = `
  .diagram text { font-size: 10px; text-anchor: middle; dominant-baseline: central; }
  .diagram .box { stroke: var(--attention-border); }
  .diagram .lab { fill: var(--attention-muted); text-anchor: start; font-size: 11px; }
  .mats { display: flex; flex-wrap: wrap; gap: 10px 18px; align-items: flex-start; margin-top: 8px; }
  .check { font-weight: 600; margin: 6px 0; } .check .ok { color: var(--attention-head-1); }
  .taps { display: flex; flex-wrap: wrap; gap: 8px 18px; width: 100%; }`;

  build() {
    this.tSlider = slider({
      label: this.t('temperature'), min: 0.001, max: 10, log: true, value: this.state.temperature, prop: 'temperature',
      format: (v) => (v < 0.01 ? v.toFixed(3) : v < 1 ? v.toFixed(2) : v.toFixed(1)),
      oninput: (temperature) => this.set({ temperature }),
    });
    this.kChoice = choice({ label: this.t('kernelSize'), value: this.state.k, prop: 'k', options: [{ value: '3', label: '3' }, { value: '5', label: '5' }],
      onchange: (k) => this.set({ k, kernel: '' }) });
    this.signalChoice = choice({ label: this.t('signal'), value: this.state.signal, prop: 'signal', options: Object.keys(SIGNALS).map((v) => ({ value: v, label: this.t(v) })),
      onchange: (signal) => this.set({ signal }) });
    this.taps = h('div', { class: 'taps' });
    this.diagram = s('svg', { class: 'diagram', viewBox: `0 0 ${W} ${H}`, width: W, role: 'img' });
    this.lines = h('canvas', { 'aria-hidden': 'true' }); // under the diagram's boxes
    this.views = {
      Y: matrixView({ t: this.t, name: this.t('attentionY'), cell: 44, values: true }),
      direct: matrixView({ t: this.t, name: this.t('direct'), cell: 44, values: true }),
    };
    this.headViews = [];
    // parts made later for a shape (taps, diagram): a rebuild (a new lang) makes them afresh
    this.tapSliders = null;
    this.diagramParts = null;
    this.headsEl = h('div', { class: 'mats' });
    // the check keeps the height of its longest words (the limit not reached, a difference of 4 digits)
    [this.checkEl, this.check] = steady('p', { class: 'check' }, ['hard', 'soft'].map((limit) => [...rich(this.t('check', { difference: '0.888', limit: this.t(limit) })), ' \u2714']));
    this.scaleNote = h('p', { class: 'note' });
    return h('div', {}, [
      h('p', { class: 'title' }, this.t('title')),
      h('div', { class: 'controls' }, [this.signalChoice.el, this.kChoice.el]),
      h('div', { class: 'controls' }, [this.tSlider.el]),
      h('div', { class: 'controls' }, [this.taps]),
      h('div', { class: 'layered' }, [this.lines, this.diagram]),
      h('div', { class: 'mats' }, [this.views.Y.el, this.views.direct.el]),
      this.checkEl,
      h('details', {}, [h('summary', {}, this.t('headWeights')), this.headsEl]),
      h('p', { class: 'note' }, rich(this.t('note'))),
      this.scaleNote,
    ]);
  }

  /** The kernel drawn (the `kernel` attribute if it fits k, else the default); `kernel` itself is the attribute's property. */
  kernelValues() {
    return parseKernel(this.state.kernel, Number(this.state.k));
  }

  rehearsal() {
    return { temperature: this.state.temperature < 1 ? 2 : 0.01 }; // (the slider: soft and hard limits alike)
  }

  syncControls() {
    if (!this.tSlider) return;
    this.tSlider.set(this.state.temperature);
    this.kChoice.set(this.state.k);
    this.signalChoice.set(this.state.signal);
  }

  syncTaps(kernel) {
    if (this.tapSliders?.length !== kernel.length) {
      this.tapSliders = kernel.map((w, r) => slider({
        label: `w${r + 1}`, min: -1, max: 1, step: 0.05, value: w, format: (v) => num(v),
        oninput: (v) => { const kv = this.kernelValues(); kv[r] = v; this.set({ kernel: kv.map((t) => +t.toFixed(2)).join(',') }); },
      }));
      this.tapSliders.forEach((sl, r) => sl.el.querySelector('label').style.setProperty('color', headColor(r)));
      replace(this.taps, this.tapSliders.map((sl) => sl.el));
      this.headViews = kernel.map((_, r) => matrixView({ t: this.t, name: this.t('head', { n: r + 1 }), cell: 12 }));
      replace(this.headsEl, this.headViews.map((v) => v.el));
    }
    kernel.forEach((w, r) => this.tapSliders[r].set(w));
  }

  render() {
    // a kernel of another size than k (a link or an attribute) means the default kernel
    if (this.state.kernel.split(',').length !== Number(this.state.k)) this.state.kernel = '';
    const kernel = this.kernelValues();
    this.syncTaps(kernel);
    const signal = SIGNALS[this.state.signal];
    const m = convModel(this.attn, {
      x: signal.map((v) => [v]), K: kernel.map((w) => [[w]]), b: [0], temperature: this.state.temperature,
    });
    const Y = [m.Y.map((y) => y[0])];
    const D = [m.direct.map((y) => y[0])];
    // the diagram's inputs and outputs and both rows of Y: one colour scale
    const max = Math.max(1e-9, ...signal.map(Math.abs), ...Y[0].map(Math.abs), ...D[0].map(Math.abs));
    this.drawDiagram(m, signal, max);
    this.views.Y.update(Y, { max });
    this.views.direct.update(D, { max });
    m.weights.forEach((Wh, r) => this.headViews[r].update(Wh, { max: 1 }));
    const limit = this.t(m.hard ? 'hard' : 'soft');
    const difference = gap(m.maxDiff);
    // (a new difference is changed text in the elements there: none made again per step)
    const check = [...rich(this.t('check', { difference, limit })), m.hard ? ' \u2714' : ''];
    check.find((n) => n.localName === 'strong')?.classList.toggle('ok', m.hard);
    morph(this.check, check);
    setText(this.scaleNote, this.t('scale', { max: num(max) }));
    this.announce(this.t('summary', { k: m.k, temperature: num(this.state.temperature, 3), difference, limit }));
  }

  // The diagram's boxes are made once per shape (one for every value); a
  // change of temperature, kernel or signal only restyles what changed. Its
  // lines (one for every head, output and input position: hundreds) are
  // painted on the canvas under it.
  buildDiagram(m) {
    const step = W / (m.P + 1);
    const xAt = (p) => step * (p + 1);
    const [yIn, yOut, box] = [34, 150, Math.min(30, step - 6)];
    const lines = Array.from({ length: m.N * m.P }, (_, k) => ({
      x1: xAt(Math.floor(k / m.P) + m.pad), y1: yOut - box / 2, x2: xAt(k % m.P), y2: yIn + box / 2,
    }));
    const cell = (x, y) => ({
      rect: s('rect', { class: 'box', x: x - box / 2, y: y - box / 2, width: box, height: box, rx: 3 }),
      text: s('text', { x, y }),
    });
    const inputs = Array.from({ length: m.P }, (_, p) => cell(xAt(p), yIn));
    const outputs = Array.from({ length: m.N }, (_, i) => cell(xAt(i + m.pad), yOut));
    this.diagramParts = { shape: `${m.k}|${m.N}|${m.P}`, lines, inputs, outputs, drawn: new Map() };
    replace(this.diagram, [
      s('text', { class: 'lab', x: 0, y: 10 }, this.t('inputPadded')), s('text', { class: 'lab', x: 0, y: 182 }, this.t('output')),
      ...[...inputs, ...outputs].flatMap((c) => [c.rect, c.text]),
    ]);
    this.diagram.setAttribute('aria-label', this.t('diagram', { k: m.k }));
  }

  drawDiagram(m, signal, max) {
    if (this.diagramParts?.shape !== `${m.k}|${m.N}|${m.P}`) this.buildDiagram(m);
    const { lines, inputs, outputs, drawn } = this.diagramParts;
    // whole attributes, written only when they change: a restyled diagram's markup is a fresh one's
    const set = (el, name, value) => {
      const was = drawn.get(el) ?? drawn.set(el, {}).get(el);
      if (was[name] === value) return;
      was[name] = value;
      if (name === 'text') setText(el, value); else el.setAttribute(name, value); // (setText: the text node stays)
    };
    const root = this.shadowRoot;
    paintLines(this.lines, m.weights.flatMap((Wh, r) => {
      const stroke = rgbText(cssRgb(root, headColor(r)));
      return lines.flatMap((at, k) => {
        const w = Wh.data[k];
        return w < 0.01 ? [] : [{ kind: 'line', ...at, stroke, opacity: Math.min(1, 0.15 + w), lineWidth: 0.4 + 2.6 * w }];
      });
    }), W, H);
    const paint = ({ rect, text }, v, pad) => {
      set(rect, 'style', `fill:${rgbText(scaleRgb(root, v, max))}${pad ? ';stroke-dasharray:3 2' : ''}`); // resolved: a mix of var()s in CSS restyles slowly
      set(text, 'style', `fill:${labelColor(root, v, max)}`);
      set(text, 'text', num(v, 1));
    };
    const padded = [...new Array(m.pad).fill(0), ...signal, ...new Array(m.pad).fill(0)];
    padded.forEach((v, p) => paint(inputs[p], v, p < m.pad || p >= m.pad + m.N));
    m.Y.forEach((y, i) => paint(outputs[i], y[0], false));
  }
}

defineFigure('attention-as-conv', AsConv);
