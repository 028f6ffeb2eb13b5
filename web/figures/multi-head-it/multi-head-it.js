// <attention-multi-head-it>: which word does "it" refer to, with one head
// or two? Attributes: adjective="tired|wide", heads="1|2", tip="-2..2",
// off="", "1", "2" or "1,2" (heads switched off; with one head only head 1 counts).
import { props } from './multi-head-it.props.js';
import { FigureElement, defineFigure } from '../../kit/figure-element.js';
import { h, s, replace, setText, replaceFor, setStyle, setAttr } from '../../kit/dom.js';
import { choice, slider, toggle } from '../../kit/controls.js';
import { matrixView } from '../../kit/draw/matrix-view.js';
import { num, pcts } from '../../kit/format.js';
import { rich } from '../../kit/rich.js';
import { itModel, topTwo, truth, verdict, FEATURES, IT, ADJ } from './multi-head-it.model.js';

const ROW = 22;

class MultiHeadIt extends FigureElement {
  static strings = { en: () => import('./multi-head-it.strings.en.js'), zh: () => import('./multi-head-it.strings.zh.js') };

  static props = props;

  static css = `
  .sentence { font-size: 1.15em; margin: 4px 0 10px; line-height: 1.9; }
  .sentence .it { background: var(--attention-accent); color: var(--attention-bg); border-radius: 4px; padding: 1px 5px; }
  .sentence .adj { border-bottom: 3px solid var(--attention-key); font-weight: 600; }
  .heads { display: grid; grid-template-columns: repeat(auto-fit, minmax(250px, 1fr)); gap: 12px; }
  .head { padding: 8px; border-radius: 8px; background: var(--attention-panel); }
  .head.off { opacity: 0.45; }
  .head .sub { margin: 0 0 4px; font-size: 0.95em; display: flex; justify-content: space-between; gap: 8px; align-items: center; flex-wrap: wrap; }
  .head svg text.w { font-variant-numeric: tabular-nums; fill: var(--attention-muted); }
  .head svg text.adjw { font-weight: 700; }
  .readout { margin-top: 12px; display: grid; gap: 6px; }
  .verdict { font-size: 1.25em; font-weight: 700; }
  .verdict .ok { color: var(--attention-head-1); } .verdict .bad { color: var(--attention-negative); }
  .bars { display: grid; grid-template-columns: 4.5em 1fr 3.2em; gap: 4px 8px; align-items: center; max-width: 460px; }
  .bar { height: 14px; background: var(--attention-positive); border-radius: 3px; min-width: 1px; }
  details { margin-top: 12px; }
  summary { cursor: pointer; font-weight: 600; }
  .mats { display: flex; flex-wrap: wrap; gap: 14px; margin-top: 8px; align-items: flex-start; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 10px; font-size: 0.9em; margin: 8px 0; }
  dt { font-weight: 600; } dd { margin: 0; }`;

  build() {
    const c = this.controls = {
      adjective: choice({
        label: this.t('adjectiveLabel'), value: this.state.adjective, prop: 'adjective',
        options: [{ value: 'tired', label: 'tired' }, { value: 'wide', label: 'wide' }],
        onchange: (adjective) => this.set({ adjective }),
      }),
      heads: choice({
        label: this.t('heads'), value: this.state.heads, prop: 'heads',
        options: [{ value: '1', label: this.t('oneHead') }, { value: '2', label: this.t('twoHeads') }],
        onchange: (heads) => this.set({ heads }),
      }),
      tip: slider({
        label: this.t('tip'), min: -2, max: 2, step: 0.1, value: this.state.tip, prop: 'tip',
        format: (v) => (Math.abs(v) < 0.05 ? this.t('tipEven') : this.t('tipToward', { word: v > 0 ? 'animal' : 'road', amount: num(Math.abs(v), 1) })),
        oninput: (tip) => this.set({ tip }),
      }),
    };
    this.switches = [0, 1].map((hd) => toggle({
      label: this.t('headOn', { n: hd + 1 }), value: !this.offs()[hd],
      onchange: (on) => {
        const off = this.offs();
        off[hd] = !on;
        this.set({ off: [1, 2].filter((_, k) => off[k]).join(',') });
      },
    }));
    this.sentence = h('p', { class: 'sentence' });
    this.headsEl = h('div', { class: 'heads' });
    this.readout = h('div', { class: 'readout panel' });
    this.sentenceOf = null;
    this.panels = null;
    this.readoutParts = null;
    this.xView = matrixView({ t: this.t, name: 'X', cell: 18, colLabels: FEATURES.map((f) => this.t(f)), digits: 0 });
    this.wViews = ['Wq', 'Wk', 'Wv', 'Wo'].map((k) => matrixView({ t: this.t, name: `W${k[1].toUpperCase()}`, cell: 16, rowLabels: k === 'Wo' ? null : FEATURES.map((f) => this.t(f)), digits: 2, groups: k !== 'Wo' }));
    this.details = h('details', {}, [
      h('summary', {}, this.t('numbers')),
      h('p', {}, this.t('featuresIntro')),
      h('dl', {}, FEATURES.flatMap((f) => [h('dt', {}, this.t(f)), h('dd', {}, this.t(`${f}Note`))])),
      h('div', { class: 'mats' }, [this.xView.el]),
      h('p', {}, rich(this.t('layerNote'))),
      h('p', {}, rich(this.t('headNote'))),
      h('div', { class: 'mats' }, this.wViews.map((v) => v.el)),
    ]);
    return h('div', {}, [
      h('p', { class: 'title' }, this.t('title')),
      this.sentence,
      h('div', { class: 'controls' }, [c.adjective.el, c.heads.el]),
      h('div', { class: 'controls' }, [c.tip.el, ...this.switches.map((sw) => sw.el)]),
      this.headsEl,
      this.readout,
      this.details,
      h('p', { class: 'note' }, rich(this.t('note'))),
    ]);
  }

  /** [head 1 off, head 2 off], from the off attribute. */
  offs() {
    const off = String(this.state.off).split(',');
    return [off.includes('1'), off.includes('2')];
  }

  syncControls() {
    if (!this.controls) return;
    for (const k of ['adjective', 'heads', 'tip']) this.controls[k].set(this.state[k]);
    const off = this.offs();
    this.switches.forEach((sw, hd) => {
      sw.set(!off[hd]);
      sw.el.hidden = hd >= Number(this.state.heads); // with one head there is no head 2 to switch
    });
  }

  render() {
    const heads = Number(this.state.heads);
    // a switch or a choice goes back to states seen before: their models are kept (a few)
    const key = `${heads}|${this.state.adjective}|${this.state.tip}|${this.state.off}`;
    this.models ??= new Map();
    let m = this.models.get(key);
    if (!m) {
      m = itModel(this.attn, { heads, adjective: this.state.adjective, tip: this.state.tip, off: this.offs() });
      if (this.models.size >= 16) this.models.delete(this.models.keys().next().value);
      this.models.set(key, m);
    }
    if (this.sentenceOf !== this.state.adjective) { // the sentence changes with the adjective only
      this.sentenceOf = this.state.adjective;
      replace(this.sentence, m.words.map((w, i) => [
        i ? ' ' : '', h('span', { class: i === IT ? 'it' : i === ADJ ? 'adj' : '' }, w)]), '.');
      this.xView.update(m.X, { rowLabels: m.words });
    }
    this.panels ??= [0, 1].map((hd) => this.headPanel(m.words.length, hd));
    if (this.headsEl.childElementCount !== heads) replace(this.headsEl, this.panels.slice(0, heads).map((p) => p.el));
    m.itWeights.forEach((w, hd) => this.panels[hd].update(m.words, w, heads));
    this.renderReadout(m);
    ['Wq', 'Wk', 'Wv', 'Wo'].forEach((k, i) => this.wViews[i].update(m.W[k], { groups: heads }));
    this.announce(this.describe(m, heads));
  }

  /** Head `hd`'s panel for a sentence of `n` words, made once: {el, update(words, weights, heads)}. */
  headPanel(n, hd) {
    const y0 = 10;
    const yIt = y0 + (n - 1) * ROW / 2;
    const color = `var(--attention-head-${hd + 1})`;
    const rows = Array.from({ length: n }, (_, i) => {
      const y = y0 + i * ROW;
      return {
        line: s('line', { x1: 34, y1: yIt, x2: 104, y2: y, stroke: color, 'stroke-linecap': 'round' }),
        word: s('text', { x: 110, y, 'dominant-baseline': 'central', class: i === ADJ ? 'adjw' : '' }),
        weight: s('text', { x: 236, y, 'text-anchor': 'end', 'dominant-baseline': 'central', class: 'w' }),
      };
    });
    const kids = rows.flatMap((r) => [r.line, r.word, r.weight]);
    kids.push(s('text', { x: 4, y: yIt, 'dominant-baseline': 'central', 'font-weight': 700 }, 'it'));
    const svg = s('svg', { viewBox: `0 0 240 ${y0 * 2 + (n - 1) * ROW}`, width: 240, role: 'img',
      'aria-label': this.t('headAria', { n: hd + 1 }) }, kids);
    const role = h('span', { class: 'note' });
    const el = h('div', { class: 'head' }, [h('div', { class: 'sub' }, [h('span', { style: `color:${color}` }, this.t('headTitle', { n: hd + 1 })), role]), svg]);
    return {
      el,
      update: (words, w, heads) => {
        const off = this.offs()[hd];
        el.classList.toggle('off', off);
        setText(role, this.t(off ? 'switchedOff' : heads === 1 ? 'roleOnly' : hd === 0 ? 'roleNouns' : 'roleAdjectives'));
        const shown = pcts(w);
        rows.forEach((r, i) => {
          setAttr(r.line, 'stroke-width', String(0.4 + 10 * w[i]));
          setAttr(r.line, 'stroke-opacity', String(0.2 + 0.8 * w[i]));
          setText(r.word, words[i]);
          setText(r.weight, shown[i]);
        });
      },
    };
  }

  renderReadout(m) {
    const v = verdict(m.readout);
    const right = v.referent === truth(this.state.adjective);
    if (!this.readoutParts) { // made once; each render changes only its words and bar widths
      const bar = (label) => {
        const parts = { bar: h('div', { class: 'bar' }), value: h('span', {}) };
        parts.el = [h('span', {}, label), parts.bar, parts.value];
        return parts;
      };
      const r = this.readoutParts = { verdict: h('div', { class: 'verdict' }), margin: h('div', {}), animal: bar('animal'), road: bar('road') };
      replace(this.readout, [r.verdict, r.margin, h('div', { class: 'bars' }, [...r.animal.el, ...r.road.el]),
        h('p', { class: 'note' }, this.t('readoutNote'))]);
    }
    const r = this.readoutParts;
    replaceFor(r.verdict, `${v.referent}|${right}`, () => (!v.referent ? this.t('verdictUndecided')
      : [this.t('verdict', { referent: v.referent }), ' ', h('span', { class: right ? 'ok' : 'bad' }, this.t(right ? 'right' : 'wrong'))]));
    setText(r.margin, this.t('margin', { points: v.points, noun: num(m.gathered[0]), animacy: num(m.gathered[1]) }));
    for (const k of ['animal', 'road']) {
      setStyle(r[k].bar, 'width', `${(m.readout[k] * 100).toFixed(1)}%`);
      setText(r[k].value, `${v[k]}%`);
    }
  }

  describe(m, heads) {
    const perHead = m.itWeights.map((w, hd) => {
      const [first, second] = topTwo(m.words, w);
      return this.t('perHead', { n: hd + 1, first, second, off: this.offs()[hd] ? this.t('perHeadOff') : '' });
    });
    const v = verdict(m.readout);
    return this.t('summary', { heads, adjective: this.state.adjective, perHead, referent: v.referent ?? this.t('undecided'), points: v.points });
  }
}

defineFigure('attention-multi-head-it', MultiHeadIt);
