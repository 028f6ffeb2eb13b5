// <attention-tempering>: the spread of dot products grows with d_k; dividing
// by sqrt(d_k) keeps it fixed and keeps the softmax from collapsing, and so
// keeps the gradient that reaches the scores alive (tempering-gradient.view.js).
// Attributes: dk="1..512", tau="0.01..100" (extra temperature).
import { FigureElement, defineFigure } from './figure-element.js';
import { h, s, replace } from './dom.js';
import { slider } from './controls.js';
import { mathSpan } from './math.js';
import { num, pct } from './format.js';
import { gradientCss, gradientPanel } from './tempering-gradient.view.js';
import { temperingModel, BINS, KEYS, QUERIES, SAMPLE_KEYS, MAX_DK } from './tempering.model.js';

// d_k's slider: whole numbers from 1 to 512 spaced evenly in log d_k, so each key press gives a new d_k
const DKS = [...new Set(Array.from({ length: 201 }, (_, k) => Math.round(MAX_DK ** (k / 200))))];
const variance = (v) => num(v, 2); // raw and scaled variances print alike, so equal values look equal
const tauText = (v) => (v < 0.1 ? v.toFixed(2) : v < 10 ? v.toFixed(1) : String(Math.round(v)));

const W = 520;
const H = 150;
const PAD = 24;

class Tempering extends FigureElement {
  static props = {
    dk: { type: 'number', default: 64, min: 1, max: MAX_DK, integer: true },
    tau: { type: 'number', default: 1, min: 0.01, max: 100 },
  };

  static css = `
  .hist .raw { fill: var(--attention-negative); fill-opacity: 0.55; }
  .hist .scaled { fill: var(--attention-positive); fill-opacity: 0.8; }
  .hist .axis { stroke: var(--attention-border); }
  .hist text { font-size: 11px; fill: var(--attention-muted); }
  .key { display: inline-flex; align-items: center; gap: 6px; margin-right: 16px; font-size: 0.9em; }
  .key i { width: 14px; height: 10px; border-radius: 2px; display: inline-block; }
  .key .raw { background: var(--attention-negative); opacity: 0.6; } .key .scaled { background: var(--attention-positive); }
  .softmaxes { display: grid; grid-template-columns: repeat(auto-fit, minmax(230px, 1fr)); gap: 12px; margin-top: 10px; }
  .sm .sub { margin: 0 0 4px; font-size: 0.95em; font-weight: 600; }
  .sm svg rect { fill: var(--attention-positive); }
  .sm.raw svg rect { fill: var(--attention-negative); }
  .sm p { margin: 4px 0 0; font-size: 0.88em; font-variant-numeric: tabular-nums; }${gradientCss}`;

  build() {
    this.dkSlider = slider({
      label: 'd\u2096', values: DKS, value: this.state.dk, prop: 'dk', format: String,
      oninput: (dk) => this.set({ dk }),
    });
    this.tauSlider = slider({
      label: 'Extra temperature \u03c4', min: 0.01, max: 100, log: true, value: this.state.tau, prop: 'tau',
      format: tauText,
      oninput: (tau) => this.set({ tau }),
    });
    this.hist = s('svg', { class: 'hist', viewBox: `0 0 ${W} ${H + PAD}`, width: W, role: 'img' });
    this.keys = h('div');
    this.softmaxes = h('div', { class: 'softmaxes' });
    this.gradient = gradientPanel();
    return h('div', {}, [
      h('p', { class: 'title' }, 'Tempering: why the scores are divided by \u221ad\u2096'),
      h('div', { class: 'controls' }, [this.dkSlider.el, this.tauSlider.el]),
      this.keys,
      this.hist,
      this.softmaxes,
      this.gradient.el,
      h('p', { class: 'note' }, [`${QUERIES} random queries and ${SAMPLE_KEYS} random keys, ${(QUERIES * SAMPLE_KEYS).toLocaleString('en-US')} dot products; each entry is drawn independently from a standard normal (mean 0, variance 1). A dot product `,
        mathSpan('\\boldsymbol{q}^T\\boldsymbol{k}=\\sum_{i=1}^{d_k}q_ik_i'),
        ' adds up d\u2096 independent products of mean 0 and variance 1, so its variance is d\u2096 and its spread grows like \u221ad\u2096. Dividing by \u221ad\u2096 (the temperature ',
        mathSpan('T=\\sqrt{d_k}'), ') brings it back to 1, so the softmax keeps a useful spread (and, in training, useful gradients). '
        + 'Both plots share one axis; each is scaled to its own height. \u03c4 multiplies the temperature on top: small \u03c4 sharpens the weights toward one key, large \u03c4 flattens them toward uniform.']),
    ]);
  }

  syncControls() {
    this.dkSlider?.set(this.state.dk);
    this.tauSlider?.set(this.state.tau);
  }

  render() {
    const dk = Math.round(this.state.dk);
    const m = temperingModel(this.attn, { dk, tau: this.state.tau });
    replace(this.keys, [
      h('span', { class: 'key' }, [h('i', { class: 'raw' }), `q\u00b7k: variance ${variance(m.raw.variance)}`]),
      h('span', { class: 'key' }, [h('i', { class: 'scaled' }), `q\u00b7k / \u221a${dk}: variance ${variance(m.scaled.variance)}`]),
    ]);
    this.drawHistogram(m);
    replace(this.softmaxes, [
      this.softmaxPanel('raw', 'softmax(q\u00b7k), no division', m.unscaledSoftmax, m.maxEntropy),
      this.softmaxPanel('scaled', `softmax(q\u00b7k / (\u03c4\u221ad\u2096)), \u03c4 = ${tauText(this.state.tau)}`, m.scaledSoftmax, m.maxEntropy),
    ]);
    const gradient = this.gradient.update(this.attn, dk);
    this.announce(`d_k ${dk}: dot products have variance ${variance(m.raw.variance)}, scaled ${variance(m.scaled.variance)}. `
      + `Without the division the largest weight averages ${pct(m.unscaledSoftmax.top)}, with it ${pct(m.scaledSoftmax.top)}. ${gradient}`);
  }

  drawHistogram(m) {
    const bw = W / BINS;
    const bars = (counts, cls) => {
      const top = Math.max(...counts) || 1;
      return counts.map((c, k) => s('rect', { class: cls, x: k * bw + 0.5, width: bw - 1, y: H - (H - 6) * (c / top), height: (H - 6) * (c / top) }));
    };
    const ticks = [-1, -0.5, 0, 0.5, 1].map((f) => {
      const x = W / 2 + (f * W) / 2 * (1 - 1 / BINS);
      return s('text', { x, y: H + 16, 'text-anchor': 'middle' }, num(f * m.range, m.range < 10 ? 1 : 0));
    });
    this.hist.setAttribute('aria-label', `Histograms of ${QUERIES * SAMPLE_KEYS} dot products over \u00b1${num(m.range, 1)}: `
      + `unscaled variance ${variance(m.raw.variance)}, scaled variance ${variance(m.scaled.variance)}`);
    replace(this.hist, bars(m.raw.histogram, 'raw'), bars(m.scaled.histogram, 'scaled'),
      s('line', { class: 'axis', x1: 0, x2: W, y1: H + 0.5, y2: H + 0.5 }), ticks);
  }

  softmaxPanel(cls, title, st, maxEntropy) {
    const bw = 200 / KEYS;
    const svg = s('svg', { viewBox: '0 0 200 60', width: 200, role: 'img', 'aria-label': `${title}: weights of one query over ${KEYS} keys` },
      st.example.map((w, k) => s('rect', { x: k * bw + 1, width: bw - 2, y: 58 - 56 * w, height: Math.max(0.5, 56 * w) })));
    return h('div', { class: `sm ${cls}` }, [
      h('div', { class: 'sub' }, title), svg,
      h('p', {}, `entropy ${num(st.entropy)} of ${num(maxEntropy)} bits \u00b7 largest weight ${pct(st.top)} (mean over ${QUERIES} queries)`),
    ]);
  }
}

defineFigure('attention-tempering', Tempering);
