// <attention-susan-mary>: swap the names in "Susan gave roses to Mary" and
// watch the outputs of self-attention, with and without positions.
// Attributes: order="susan-mary|mary-susan", positions="true|false".
import { props } from './susan-mary.props.js';
import { FigureElement, defineFigure } from '../../kit/figure-element.js';
import { h, setText } from '../../kit/dom.js';
import { toggle } from '../../kit/controls.js';
import { matrixView } from '../../kit/draw/matrix-view.js';
import { rich } from '../../kit/rich.js';
import { morph } from '../../kit/keep.js';
import { gap, num, sameness } from '../../kit/format.js';
import { maxAbs } from '../../kit/draw/scale.js';
import { susanMaryModel, ORDERS, FEATURES, GAVE } from './susan-mary.model.js';

const OTHER = { 'susan-mary': 'mary-susan', 'mary-susan': 'susan-mary' };
const sentence = (order) => ORDERS[order].join(' ');

class SusanMary extends FigureElement {
  static strings = { en: () => import('./susan-mary.strings.en.js'), zh: () => import('./susan-mary.strings.zh.js') };

  static props = props;

  static css = `
  .words { position: relative; height: 44px; max-width: 520px; margin: 6px 0 10px; container-type: inline-size; }
  .chip { position: absolute; top: 4px; width: calc(20% - 8px); text-align: center; padding: 6px 0; border-radius: 8px;
    background: var(--attention-panel); border: 1px solid var(--attention-border); transition: left 0.6s ease; font-weight: 600;
    font-size: min(1em, 4.2cqi); white-space: nowrap; } /* a name stays whole in a narrow figure */
  .chip.name { border-color: var(--attention-accent); }
  .chip.gave { background: var(--attention-accent); color: var(--attention-bg); }
  @media (prefers-reduced-motion: reduce) { .chip { transition: none; } }
  .mats { display: flex; flex-wrap: wrap; gap: 14px 22px; align-items: flex-start; }
  .compare { display: grid; gap: 8px; margin-top: 10px; }
  .pair { display: flex; flex-wrap: wrap; gap: 8px 18px; align-items: flex-end; }
  .verdict { margin: 0; }
  .verdict strong { font-weight: 700; }
  .verdict .same { color: var(--attention-head-1); } .verdict .diff { color: var(--attention-negative); }`;

  build() {
    this.chipsFor = null; // what render last wrote into these elements
    this.verdictFor = null;
    this.chips = Object.fromEntries(ORDERS['susan-mary'].map((w) =>
      [w, h('span', { class: `chip ${w === 'gave' ? 'gave' : /Susan|Mary/.test(w) ? 'name' : ''}` }, w)]));
    this.swap = h('button', { type: 'button', onclick: () => this.set({ order: OTHER[this.state.order] }) }, this.t('swap'));
    this.posToggle = toggle({ label: this.t('positions'), value: this.state.positions, prop: 'positions', onchange: (positions) => this.set({ positions }) });
    const v = (name, opts) => matrixView({ t: this.t, name, cell: 26, values: true, ...opts });
    this.views = {
      W: v(this.t('weights'), { rowLabels: ORDERS['susan-mary'], colLabels: ORDERS['susan-mary'], shares: true }),
      Y: v('Y', { rowLabels: ORDERS['susan-mary'], colLabels: FEATURES.map((f) => this.t(f)), cell: 34 }),
      gaveNow: v('y_gave', { cell: 34 }),
      gaveOther: v('y_gave', { cell: 34 }),
    };
    this.words = h('div', { class: 'words', 'aria-hidden': 'true' }, Object.values(this.chips));
    this.sentenceText = h('p', { class: 'sr-only' });
    this.verdict = h('p', { class: 'verdict' });
    this.labels = [h('div', { class: 'note' }), h('div', { class: 'note' })];
    return h('div', {}, [
      h('p', { class: 'title' }, this.t('title')),
      this.words, this.sentenceText,
      h('div', { class: 'controls' }, [this.swap, this.posToggle.el]),
      h('div', { class: 'mats' }, [this.views.W.el, this.views.Y.el]),
      h('div', { class: 'compare panel' }, [
        h('div', { class: 'pair' }, [
          h('div', {}, [this.labels[0], this.views.gaveNow.el]),
          h('div', {}, [this.labels[1], this.views.gaveOther.el]),
        ]),
        this.verdict,
      ]),
      h('p', { class: 'note' }, rich(this.t('note'))),
      this.scaleNote = h('p', { class: 'note' }),
    ]);
  }

  syncControls() {
    this.posToggle?.set(this.state.positions);
  }

  render() {
    const { order, positions } = this.state;
    // two models in all (with positions or without): each computed once
    this.models ??= new Map();
    if (!this.models.has(positions)) this.models.set(positions, susanMaryModel(this.attn, { positions }));
    const m = this.models.get(positions);
    const now = m.orders[order];
    if (this.chipsFor !== order) now.words.forEach((w, i) => { this.chips[w].style.left = `calc(${i * 20}% + 4px)`; });
    this.chipsFor = order;
    setText(this.sentenceText, this.t('sentence', { sentence: sentence(order) }));
    this.views.W.update(now.weights, { max: 1, rowLabels: now.words, colLabels: now.words });
    // Y and the two y_gave rows are compared: one colour scale
    const max = maxAbs([...now.output.data, ...m.gave[OTHER[order]]]);
    this.views.Y.update(now.output, { max, rowLabels: now.words, marks: new Set(FEATURES.map((_, c) => `${GAVE},${c}`)) });
    this.views.gaveNow.update([m.gave[order]], { max });
    this.views.gaveOther.update([m.gave[OTHER[order]]], { max });
    setText(this.scaleNote, this.t('scale', { max: num(max) }));
    setText(this.labels[0], this.t('inSentence', { sentence: sentence(order) }));
    setText(this.labels[1], this.t('inSentence', { sentence: sentence(OTHER[order]) }));
    const key = sameness(m.gaveDiff);
    const same = this.t(key);
    const why = positions ? this.t('withPositions') : this.t('moved', { difference: gap(m.swapDiff) });
    const verdict = this.t('verdict', { same, difference: gap(m.gaveDiff), why });
    if (this.verdictFor !== verdict) {
      const said = rich(verdict);
      said.find((n) => n.localName === 'strong')?.classList.add(key === 'different' ? 'diff' : 'same');
      morph(this.verdict, said); // (the elements there, with new text: none made again)
    }
    this.verdictFor = verdict;
    this.announce(this.t(positions ? 'summaryWith' : 'summaryWithout', { sentence: sentence(order), same }));
  }
}

defineFigure('attention-susan-mary', SusanMary);
