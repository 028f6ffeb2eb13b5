// <attention-cross>: cross-attention in translation. Decoder words (queries)
// over encoder words (keys and values): the weights are an alignment.
// Attributes: pair="en-fr|en-de|en-fr-short", temperature="0.02..3",
// word="0.." (the decoder word whose lines are highlighted). A page's own
// sentences: a <script type="application/json" data-example> child (see
// parseExample in cross.model.js), which replaces the pairs.
import { props } from './cross.props.js';
import { FigureElement, defineFigure } from '../../kit/figure-element.js';
import { h, s, replaceFor, setAttr } from '../../kit/dom.js';
import { keepIn, layOut, showOne } from '../../kit/keep.js';
import { cssRgb, rgbText } from '../../kit/draw/colors.js';
import { paintLines } from '../../kit/draw/drawing.js';
import { choice, slider } from '../../kit/controls.js';
import { matrixView } from '../../kit/draw/matrix-view.js';
import { rich } from '../../kit/rich.js';
import { leaders, pcts } from '../../kit/format.js';
import { crossModel, crossSetup, parseExample, PAIRS } from './cross.model.js';

const W = 640;
const [H, Y_TOP, Y_BOTTOM] = [150, 20, 130];
const xOf = (n, i) => 60 + ((W - 80) * (i + 0.5)) / n;

class Cross extends FigureElement {
  static strings = { en: () => import('./cross.strings.en.js'), zh: () => import('./cross.strings.zh.js') };

  static props = props;

  static css = `
  .lines text { font-size: 12px; cursor: pointer; }
  .lines text.sel { font-weight: 700; fill: var(--attention-accent); }
  .lines .side { font-size: 11px; fill: var(--attention-muted); cursor: default; }`;

  #example = null;
  #setups = new Map(); // what does not change with the temperature, per pair
  #parts = new Map(); // setup -> its lines and matrix (part()), made once per language

  /** The page's own sentences (called once, before build). */
  useExample(data) {
    this.#example = parseExample(data);
  }

  setup() {
    const key = this.#example ? 'page' : this.state.pair;
    if (!this.#setups.has(key)) this.#setups.set(key, crossSetup(this.#example ?? PAIRS[key]));
    return this.#setups.get(key);
  }

  pairName() {
    return this.t(this.#example ? 'pageExample' : this.state.pair);
  }

  build() {
    this.pairChoice = choice({
      label: this.t('pair'), value: this.state.pair, prop: 'pair', options: Object.keys(PAIRS).map((value) => ({ value, label: this.t(value) })),
      onchange: (pair) => this.set({ pair, word: 0 }),
    });
    this.tSlider = slider({
      label: this.t('temperature'), min: 0.02, max: 3, log: true, value: this.state.temperature, prop: 'temperature', format: (v) => v.toFixed(2),
      oninput: (temperature) => this.set({ temperature }),
    });
    // each pair's lines and matrix, the one shown and the others kept (showOne): a pair chosen again is shown as it was laid out
    this.#parts.clear();
    this.linesBox = h('div');
    this.viewBox = h('div');
    this.readout = h('p', { class: 'readout' });
    return h('div', {}, [
      h('p', { class: 'title' }, this.t('title')),
      h('div', { class: 'controls' }, [this.#example ? null : this.pairChoice.el, this.tSlider.el]),
      this.linesBox,
      this.readout,
      this.viewBox,
      h('p', { class: 'note' }, rich(this.t('note') + (this.#example ? '' : this.t('notePairs')) + this.t('noteToy'))),
    ]);
  }

  linkable() {
    return !this.#example; // a link cannot carry the page's sentences
  }

  rehearsal() {
    return { temperature: this.state.temperature === 1 ? 2 : 1 }; // (the slider)
  }

  syncControls() {
    if (!this.pairChoice) return;
    this.pairChoice.set(this.state.pair);
    this.tSlider.set(this.state.temperature);
  }

  render() {
    const setup = this.setup();
    const m = crossModel(this.attn, { temperature: this.state.temperature, setup });
    const sel = Math.min(this.state.word, m.target.length - 1);
    this.state.word = sel; // a word past the end of this pair's sentence means its last word
    const part = this.#parts.get(setup) ?? this.part(m, setup);
    showOne(this.linesBox, part.el);
    showOne(this.viewBox, part.view.el);
    this.paintPart(part, m, sel);
    const w = m.focus(sel);
    const shown = pcts(w);
    const top = leaders(w, shown);
    const looks = top.length > 1 ? this.t('looksEqually', { sources: top.map((j) => m.source[j]), share: shown[top[0]] })
      : this.t('looksAt', { source: m.source[top[0]], share: shown[top[0]] });
    replaceFor(this.readout, `${m.target[sel]}|${looks}`, () => ['\u201c', h('strong', {}, m.target[sel]), '\u201d', looks]);
    this.announce(this.t('summary', { pair: this.pairName(), word: m.target[sel], looks }));
    this.prepare();
  }

  // The other pairs' words and matrices, made one per task after a drawing
  // and kept out of sight: a reader's first choice of a pair then shows it
  // (at a phone's speed, making it there took twice a later choice of it).
  prepare() {
    if (this.#example) return;
    this.inTasks(() => {
      const key = Object.keys(PAIRS).find((k) => !this.#parts.has(this.#setups.get(k)));
      if (key === undefined) return false;
      if (!this.#setups.has(key)) this.#setups.set(key, crossSetup(PAIRS[key]));
      const setup = this.#setups.get(key);
      const m = crossModel(this.attn, { temperature: this.state.temperature, setup });
      const part = this.part(m, setup);
      keepIn(this.linesBox, part.el);
      keepIn(this.viewBox, part.view.el);
      this.paintPart(part, m, 0);
      layOut(part.el, part.view.el);
      return true;
    });
  }

  /** `part`'s matrix and lines for model `m`, word `sel` chosen. */
  paintPart(part, m, sel) {
    part.view.update(m.weights, { max: 1, rowLabels: m.target, colLabels: m.source, marks: new Set(m.source.map((_, j) => `${sel},${j}`)) });
    this.drawLines(part, m, sel);
  }

  // The words of one pair and its matrix, made once: a change of temperature
  // or of the chosen word restyles them and paints the lines again
  // (drawLines). The lines (one per pair of words: a hundred) are painted on
  // a canvas under the words: as SVG elements, every step restyled and laid out each.
  part(m, setup) {
    const kids = [s('text', { class: 'side', x: 0, y: Y_TOP + 4 }, this.t('source')), s('text', { class: 'side', x: 0, y: Y_BOTTOM + 4 }, this.t('output'))];
    const [nt, ns] = [m.target.length, m.source.length];
    const lineItems = m.target.map((_, i) => m.source.map((__, j) => ({ kind: 'line', x1: xOf(nt, i), y1: Y_BOTTOM - 14, x2: xOf(ns, j), y2: Y_TOP + 8, cap: 'round' })));
    const label = (text, x, y) => s('text', { x, y, 'text-anchor': 'middle', transform: `rotate(-25 ${x} ${y})` }, text);
    kids.push(...m.source.map((w, j) => label(w, xOf(ns, j), Y_TOP)));
    const targetEls = m.target.map((w, i) => {
      const t = label(w, xOf(nt, i), Y_BOTTOM + 6);
      t.addEventListener('click', () => this.set({ word: i }));
      return t;
    });
    kids.push(...targetEls);
    const lines = s('svg', { class: 'lines', viewBox: `0 0 ${W} ${H}`, width: W, role: 'img' }, kids);
    const canvas = h('canvas', { 'aria-hidden': 'true' }); // the lines, under the words
    const view = matrixView({ t: this.t, name: this.t('weights'), cell: 28, values: true, digits: 2, shares: true, onpick: (i) => this.set({ word: i }) });
    const part = { el: h('div', { class: 'layered' }, [canvas, lines]), lines, canvas, lineItems, targetEls, view };
    this.#parts.set(setup, part);
    return part;
  }

  drawLines({ lines, canvas, lineItems, targetEls }, m, sel) {
    const ns = m.source.length;
    const [plain, chosen] = ['positive', 'accent'].map((c) => rgbText(cssRgb(this.shadowRoot, `var(--attention-${c})`)));
    paintLines(canvas, lineItems.flatMap((row, i) => row.flatMap((at, j) => {
      const wt = m.weights.data[i * ns + j];
      const on = i === sel;
      return wt < 0.02 ? [] : [{ ...at, stroke: on ? chosen : plain, lineWidth: (on ? 1 : 0.5) + 4 * wt, opacity: on ? 0.35 + 0.65 * wt : 0.12 + 0.5 * wt }];
    })), W, H);
    targetEls.forEach((t, i) => setAttr(t, 'class', i === sel ? 'sel' : ''));
    setAttr(lines, 'aria-label', this.t('linesLabel', { word: m.target[sel] }));
  }
}

defineFigure('attention-cross', Cross);
