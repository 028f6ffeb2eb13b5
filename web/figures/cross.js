// <attention-cross>: cross-attention in translation. Decoder words (queries)
// over encoder words (keys and values): the weights are an alignment.
// Attributes: pair="en-fr|en-de|en-fr-short", temperature="0.02..3",
// word="0.." (the decoder word whose lines are highlighted).
import { FigureElement, defineFigure } from './figure-element.js';
import { h, s, replace } from './dom.js';
import { choice, slider } from './controls.js';
import { matrixView } from './matrix.view.js';
import { mathSpan } from './math.js';
import { leaders, list, pcts } from './format.js';
import { crossModel, PAIRS } from './cross.model.js';

const W = 640;

class Cross extends FigureElement {
  static props = {
    pair: { type: 'enum', values: Object.keys(PAIRS), default: 'en-fr' },
    temperature: { type: 'number', default: 0.2, min: 0.02, max: 3 },
    word: { type: 'number', default: 4, min: 0, max: 40, integer: true },
  };

  static css = `
  .lines text { font-size: 12px; cursor: pointer; }
  .lines text.sel { font-weight: 700; fill: var(--attention-accent); }
  .lines line { stroke: var(--attention-positive); stroke-linecap: round; }
  .lines line.sel { stroke: var(--attention-accent); }
  .lines .side { font-size: 11px; fill: var(--attention-muted); cursor: default; }
  .mat rect.mark { stroke: var(--attention-accent); stroke-width: 2; }`;

  build() {
    this.pairChoice = choice({
      label: 'Pair', value: this.state.pair, prop: 'pair', options: Object.entries(PAIRS).map(([value, p]) => ({ value, label: p.label })),
      onchange: (pair) => this.set({ pair, word: 0 }),
    });
    this.tSlider = slider({
      label: 'Temperature T', min: 0.02, max: 3, log: true, value: this.state.temperature, prop: 'temperature', format: (v) => v.toFixed(2),
      oninput: (temperature) => this.set({ temperature }),
    });
    this.lines = s('svg', { class: 'lines', viewBox: `0 0 ${W} 150`, width: W, role: 'img' });
    this.view = matrixView({ t: this.t, name: 'weights', cell: 28, values: true, digits: 2, shares: true, onpick: (i) => this.set({ word: i }) });
    this.readout = h('p', {});
    return h('div', {}, [
      h('p', { class: 'title' }, 'Cross-attention: the translation looks back at the source'),
      h('div', { class: 'controls' }, [this.pairChoice.el, this.tSlider.el]),
      this.lines,
      this.readout,
      this.view.el,
      h('p', { class: 'note' }, ['The encoder’s words supply keys and values, the decoder’s words the queries: ',
        mathSpan('\\mathrm{softmax}(Q_{\\text{dec}}K_{\\text{enc}}^T/T)\\,V_{\\text{enc}}'),
        '. Each row of the matrix says where one output word looks in the source, so the matrix is an alignment, and it may cross: the adjectives after the noun in French, the verb at the end in German. '
        + 'A toy: the words share hand-set “meaning” features across the languages plus their place in the sentence, which tells the two “the”s apart. '
        + 'That is why its alignment is so clean; a trained model learns its features, and its weights line the sentences up only roughly, spread over neighbouring words and over several heads. '
        + 'Click a word or a row to follow it. Colours: the weights are full at 1.']),
    ]);
  }

  syncControls() {
    if (!this.pairChoice) return;
    this.pairChoice.set(this.state.pair);
    this.tSlider.set(this.state.temperature);
  }

  render() {
    const m = crossModel(this.attn, this.state);
    const sel = Math.min(this.state.word, m.target.length - 1);
    this.state.word = sel; // a word past the end of this pair's sentence means its last word
    this.view.update(m.weights, { max: 1, rowLabels: m.target, colLabels: m.source, marks: new Set(m.source.map((_, j) => `${sel},${j}`)) });
    this.drawLines(m, sel);
    const w = m.focus(sel);
    const shown = pcts(w);
    const top = leaders(w, shown);
    const where = top.length > 1 ? `looks equally at ${list(top.map((j) => `“${m.source[j]}”`))}, ${shown[top[0]]} of its attention each`
      : `looks at “${m.source[top[0]]}” with ${shown[top[0]]} of its attention`;
    replace(this.readout, ['“', h('strong', {}, m.target[sel]), `” ${where}.`]);
    this.announce(`${PAIRS[this.state.pair].label}: ${m.target[sel]} ${where.replace(/“|”/g, '')}.`);
  }

  drawLines(m, sel) {
    const xs = (n, i) => 60 + ((W - 80) * (i + 0.5)) / n;
    const [yTop, yBot] = [20, 130];
    const kids = [s('text', { class: 'side', x: 0, y: yTop + 4 }, 'source'), s('text', { class: 'side', x: 0, y: yBot + 4 }, 'output')];
    m.target.forEach((_, i) => m.source.forEach((__, j) => {
      const wt = m.weights.data[i * m.source.length + j];
      if (wt < 0.02) return;
      kids.push(s('line', { class: i === sel ? 'sel' : '', x1: xs(m.target.length, i), y1: yBot - 14, x2: xs(m.source.length, j), y2: yTop + 8,
        'stroke-width': (i === sel ? 1 : 0.5) + 4 * wt, 'stroke-opacity': i === sel ? 0.35 + 0.65 * wt : 0.12 + 0.5 * wt }));
    }));
    const label = (text, x, y, i, cls) => {
      const t = s('text', { x, y, 'text-anchor': 'middle', class: cls, transform: `rotate(-25 ${x} ${y})` }, text);
      if (i !== null) t.addEventListener('click', () => this.set({ word: i }));
      return t;
    };
    m.source.forEach((w, j) => kids.push(label(w, xs(m.source.length, j), yTop, null, '')));
    m.target.forEach((w, i) => kids.push(label(w, xs(m.target.length, i), yBot + 6, i, i === sel ? 'sel' : '')));
    this.lines.setAttribute('aria-label', `Alignment lines from each output word to the source words, thicker for larger weights; ${m.target[sel]} is highlighted.`);
    replace(this.lines, kids);
  }
}

defineFigure('attention-cross', Cross);
