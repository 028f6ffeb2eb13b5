// <attention-tempering>: the spread of dot products grows with d_k; dividing
// by sqrt(d_k) keeps it fixed and keeps the softmax from collapsing, and so
// keeps the softmax's slope, the gradient at its input, alive
// (tempering-gradient.view.js).
// Attributes: dk="1..512", tau="0.01..100" (extra temperature).
// The histogram and the gradient plot are drawn as wide as the figure's
// column (at most W): scaled down instead, their labels would shrink to
// 6 px on a phone.
import { props } from './tempering.props.js';
import { FigureElement, defineFigure } from '../../kit/figure-element.js';
import { h, s, setAttr, setText } from '../../kit/dom.js';
import { slider } from '../../kit/controls.js';
import { rich } from '../../kit/rich.js';
import { grouped, num, pct } from '../../kit/format.js';
import { gradientCss, gradientPanel } from './tempering-gradient.view.js';
import { temperingModel, spread, hasSpread, BINS, KEYS, QUERIES, SAMPLE_KEYS, MAX_DK } from './tempering.model.js';

// d_k's slider: whole numbers from 1 to 512 spaced evenly in log d_k, so each key press gives a new d_k
const DKS = [...new Set(Array.from({ length: 201 }, (_, k) => Math.round(MAX_DK ** (k / 200))))];
const variance = (v) => num(v, 2); // raw and scaled variances print alike, so equal values look equal
const tauText = (v) => (v < 0.1 ? v.toFixed(2) : v < 10 ? v.toFixed(1) : String(Math.round(v)));

/** One path of bars standing on y = base: bar k is `heights[k]` tall and `step` wide, with a 1-unit gap. */
const barsPath = (heights, step, base) => heights.map((hgt, k) => `M${(k * step + 0.5).toFixed(2)} ${(base - hgt).toFixed(2)}h${(step - 1).toFixed(2)}v${hgt.toFixed(2)}h${(1 - step).toFixed(2)}z`).join('');

const W = 520; // the widest the histogram is drawn
const H = 150;
const PAD = 24;

class Tempering extends FigureElement {
  static strings = { en: () => import('./tempering.strings.en.js'), zh: () => import('./tempering.strings.zh.js') };

  static props = props;

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
  .sm svg path { fill: var(--attention-positive); }
  .sm.raw svg path { fill: var(--attention-negative); }
  .sm p { margin: 4px 0 0; font-size: 0.88em; font-variant-numeric: tabular-nums; }${gradientCss}`;

  build() {
    this.dkSlider = slider({
      label: 'd\u2096', values: DKS, value: this.state.dk, prop: 'dk', format: String,
      oninput: (dk) => this.set({ dk }),
    });
    this.tauSlider = slider({
      label: this.t('tau'), min: 0.01, max: 100, log: true, value: this.state.tau, prop: 'tau',
      format: tauText,
      oninput: (tau) => this.set({ tau }),
    });
    // drawn once, then updated in place: a change redraws two paths of 81
    // bars each and moves 5 ticks (a path per series, not a rect per bar: the
    // browser restyles and lays out one element instead of 81)
    this.hist = s('svg', { class: 'hist', role: 'img' });
    this.bars = { raw: s('path', { class: 'raw' }), scaled: s('path', { class: 'scaled' }) };
    this.ticks = [-1, -0.5, 0, 0.5, 1].map(() => s('text', { y: H + 16, 'text-anchor': 'middle' }));
    this.axis = s('line', { class: 'axis', x1: 0, y1: H + 0.5, y2: H + 0.5 });
    this.hist.append(this.bars.raw, this.bars.scaled, this.axis, ...this.ticks);
    this.keyTexts = { raw: h('span'), scaled: h('span') };
    const key = (cls) => h('span', { class: 'key' }, [h('i', { class: cls }), this.keyTexts[cls]]);
    this.softmaxes = { raw: this.softmaxPanel('raw'), scaled: this.softmaxPanel('scaled') };
    this.gradient = gradientPanel(this.t);
    // the other d_k once the figure has drawn (started now, those tasks would come before its first frame)
    requestAnimationFrame(() => setTimeout(() => this.precompute(), 0));
    this.width = 0;
    this.fit(W);
    const root = h('div', {}, [
      h('p', { class: 'title' }, this.t('title')),
      h('div', { class: 'controls' }, [this.dkSlider.el, this.tauSlider.el]),
      h('div', {}, [key('raw'), key('scaled')]),
      this.hist,
      h('div', { class: 'softmaxes' }, [this.softmaxes.raw.el, this.softmaxes.scaled.el]),
      this.gradient.el,
      h('p', { class: 'note' }, rich(this.t('note', {
        queries: QUERIES, sampleKeys: SAMPLE_KEYS, products: grouped(QUERIES * SAMPLE_KEYS),
      }))),
    ]);
    this.resizer?.disconnect(); // (a rebuild in another language watches its new root)
    // a new width is laid out in the next frame: laid out inside the observer, the new
    // height is a size change it cannot deliver in this frame (a "ResizeObserver loop" error)
    this.resizer = new ResizeObserver(([entry]) => {
      const w = entry.contentRect.width;
      if (w > 0) requestAnimationFrame(() => { if (this.fit(w)) this.invalidate(); });
    });
    this.resizer.observe(root);
    return root;
  }

  /** Lay the histogram and the gradient plot out `w` wide (at most W); true when that changed them. */
  fit(w) {
    const width = Math.max(240, Math.min(W, Math.floor(w)));
    const panel = this.gradient.fit(width);
    if (width === this.width) return panel;
    this.width = width;
    this.hist.setAttribute('viewBox', `0 0 ${width} ${H + PAD}`);
    this.hist.setAttribute('width', width);
    this.axis.setAttribute('x2', width);
    [-1, -0.5, 0, 0.5, 1].forEach((f, k) => this.ticks[k].setAttribute('x', width / 2 + ((f * width) / 2) * (1 - 1 / BINS)));
    return true;
  }

  // The dot products' spread (and the gradient panel's numbers) at every d_k
  // of the slider, one d_k per task, the largest (costliest) first, so
  // a move of the slider finds them kept instead of computing a
  // 65,536-product matmul inside the frame.
  precompute() {
    // (a task each, not idle callbacks: a busy page has no idle moments for
    // seconds, and a reader's input still comes between two tasks)
    const todo = DKS.filter((d) => !hasSpread(this.attn, d));
    this.inTasks(() => {
      const dk = todo.pop();
      if (dk === undefined) return false;
      spread(this.attn, dk);
      this.gradient.prepare(this.attn, dk);
      return true;
    });
  }

  connectedCallback() {
    super.connectedCallback();
    if (this.attn) this.precompute();
  }

  rehearsal() {
    const k = DKS.indexOf(Math.round(this.state.dk));
    return { dk: DKS[k > 0 ? k - 1 : 1] }; // (the d_k slider's next value down: computed ahead, precompute)
  }

  syncControls() {
    this.dkSlider?.set(this.state.dk);
    this.tauSlider?.set(this.state.tau);
  }

  render() {
    const dk = Math.round(this.state.dk);
    const m = temperingModel(this.attn, { dk, tau: this.state.tau });
    const [raw, scaled] = [variance(m.raw.variance), variance(m.scaled.variance)];
    setText(this.keyTexts.raw, this.t('keyRaw', { variance: raw }));
    setText(this.keyTexts.scaled, this.t('keyScaled', { dk, variance: scaled }));
    this.drawHistogram(m);
    this.softmaxes.raw.update(this.t('softmaxRaw'), m.unscaledSoftmax, m.maxEntropy);
    this.softmaxes.scaled.update(this.t('softmaxScaled', { tau: tauText(this.state.tau) }), m.scaledSoftmax, m.maxEntropy);
    const gradient = this.gradient.update(this.attn, dk);
    this.announce(this.t('summary', { dk, raw, scaled, unscaledTop: pct(m.unscaledSoftmax.top), scaledTop: pct(m.scaledSoftmax.top), gradient }));
  }

  drawHistogram(m) {
    for (const cls of ['raw', 'scaled']) {
      const counts = m[cls].histogram;
      const top = Math.max(...counts) || 1;
      this.bars[cls].setAttribute('d', barsPath(counts.map((c) => (H - 6) * (c / top)), this.width / BINS, H));
    }
    [-1, -0.5, 0, 0.5, 1].forEach((f, k) => setText(this.ticks[k], num(f * m.range, m.range < 10 ? 1 : 0)));
    setAttr(this.hist, 'aria-label', this.t('histogram', {
      count: QUERIES * SAMPLE_KEYS, range: num(m.range, 1), raw: variance(m.raw.variance), scaled: variance(m.scaled.variance),
    }));
  }

  /** One softmax's panel: {el, update(title, stats, maxEntropy)}; its KEYS bars are made once. */
  softmaxPanel(cls) {
    const bars = s('path');
    const svg = s('svg', { viewBox: '0 0 200 60', width: 200, role: 'img' }, bars);
    const [sub, stats] = [h('div', { class: 'sub' }), h('p')];
    const update = (title, st, maxEntropy) => {
      setText(sub, title);
      setAttr(svg, 'aria-label', this.t('softmaxLabel', { title, count: KEYS }));
      bars.setAttribute('d', barsPath(Array.from(st.example, (w) => Math.max(0.5, 56 * w)), 200 / KEYS, 58));
      setText(stats, this.t('softmaxStats', { entropy: num(st.entropy), max: num(maxEntropy), top: pct(st.top), queries: QUERIES }));
    };
    return { el: h('div', { class: `sm ${cls}` }, [sub, svg, stats]), update };
  }
}

defineFigure('attention-tempering', Tempering);
