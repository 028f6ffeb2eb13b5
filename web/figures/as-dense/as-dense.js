// <attention-as-dense>: a fully connected layer written as multi-head
// attention (one head per input, fixed one-hot attention, W^V = I, W^O = the
// dense weights), checked live against the direct layer.
// Attributes: x="x1,x2,x3,x4", seed="1..999" (the dense weights).
import { props, parseX } from './as-dense.props.js';
import { FigureElement, defineFigure } from '../../kit/figure-element.js';
import { h, setText, steady } from '../../kit/dom.js';
import { slider } from '../../kit/controls.js';
import { matrixView } from '../../kit/draw/matrix-view.js';
import { mathSpan, tex } from '../../kit/math.js';
import { rich } from '../../kit/rich.js';
import { morph } from '../../kit/keep.js';
import { num, gap, sameness } from '../../kit/format.js';
import { colourMax, denseModel, denseLayer, N, M } from './as-dense.model.js';

const inputs = Array.from({ length: N }, (_, i) => `x${i + 1}`);
const outputs = Array.from({ length: M }, (_, c) => `y${c + 1}`);

class AsDense extends FigureElement {
  static strings = { en: () => import('./as-dense.strings.en.js'), zh: () => import('./as-dense.strings.zh.js') };

  static props = props;

  static css = `
  .row2 { display: flex; flex-wrap: wrap; gap: 8px 12px; align-items: center; margin: 6px 0 12px; }
  .heads { display: inline-flex; gap: 6px; flex-wrap: wrap; }
  .sub { margin: 10px 0 2px; font-size: 0.98em; }
  .check { font-weight: 600; } .check .ok { color: var(--attention-head-1); }`;

  build() {
    const cols = inputs.flatMap((x, i) => [x, this.t('tag', { n: i + 1 })]);
    const v = (name, opts) => matrixView({ t: this.t, name, cell: 34, values: true, ...opts });
    this.views = {
      x: v('x', { colLabels: inputs }), W: v('W', { rowLabels: inputs, colLabels: outputs }),
      b: v('b', { colLabels: outputs }), y: v('y', { colLabels: outputs }),
      X: matrixView({ t: this.t, name: 'X', cell: 28, values: true, digits: 1, colLabels: cols, groups: true }),
      Z: matrixView({ t: this.t, name: 'Z', cell: 28, values: true, digits: 1, groups: true }),
      Wo: matrixView({ t: this.t, name: 'W\u1d3c', cell: 28, values: true, digits: 1, rowLabels: cols, colLabels: [...outputs, '', '', '', ''].slice(0, 2 * N) }),
      Y: matrixView({ t: this.t, name: 'Y', cell: 32, values: true, colLabels: [...outputs, '\u00b7', '\u00b7', '\u00b7', '\u00b7'].slice(0, 2 * N) }),
    };
    this.headViews = Array.from({ length: N }, (_, hd) => matrixView({ t: this.t, name: this.t('head', { n: hd + 1 }), cell: 12 }));
    this.scaleNote = h('p', { class: 'note' });
    this.sliders = inputs.map((name, i) => slider({
      label: name, min: -2, max: 2, step: 0.1, value: parseX(this.state.x)[i], format: (x) => num(x, 2),
      oninput: (val) => { const x = parseX(this.state.x); x[i] = val; this.set({ x: x.map((t) => +t.toFixed(2)).join(',') }); },
    }));
    // the check keeps the height of its longest words (each verdict with a difference of 4 digits)
    [this.checkEl, this.check] = steady('p', { class: 'check' }, ['identical', 'identicalRounding', 'different'].map((same) => [...rich(this.t('check', { same: this.t(same), difference: '0.888' })), ' \u2714']));
    const reseed = h('button', { type: 'button', onclick: () => this.set({ seed: (this.state.seed % 999) + 1 }) }, this.t('newWeights'));
    return h('div', {}, [
      h('p', { class: 'title' }, this.t('title')),
      h('div', { class: 'controls' }, [...this.sliders.map((sl) => sl.el), reseed]),
      h('div', { class: 'sub' }, this.t('denseLayer')),
      h('div', { class: 'row2' }, [this.views.x.el, h('span', { class: 'op' }, '\u00d7'), this.views.W.el, h('span', { class: 'op' }, '+'), this.views.b.el, h('span', { class: 'op' }, '='), this.views.y.el]),
      h('div', { class: 'sub' }, this.t('asAttention', { heads: N })),
      h('div', { class: 'row2' }, [this.views.X.el, h('span', { class: 'op' }, '\u2192'), h('div', { class: 'heads' }, this.headViews.map((hv) => hv.el)),
        h('span', { class: 'op' }, '\u2192'), this.views.Z.el]),
      h('div', { class: 'row2' }, [mathSpan(tex`Z`), h('span', { class: 'op' }, '\u00d7'), this.views.Wo.el, h('span', { class: 'op' }, '+ b\u1d3c ='), this.views.Y.el]),
      this.checkEl,
      h('p', { class: 'note' }, rich(this.t('note'))),
      this.scaleNote,
    ]);
  }

  rehearsal() {
    const x = parseX(this.state.x);
    x[0] = x[0] > 0 ? -0.5 : 0.5; // (the x1 slider)
    return { x: x.join(',') };
  }

  syncControls() {
    if (!this.sliders) return;
    parseX(this.state.x).forEach((v, i) => this.sliders[i].set(v));
  }

  render() {
    const x = parseX(this.state.x);
    const seed = Math.round(this.state.seed);
    if (this.layerFor?.seed !== seed) this.layerFor = { seed, layer: denseLayer(seed) }; // (the same weights for a seed)
    const { layer } = this.layerFor;
    const m = denseModel(this.attn, x, layer);
    const vs = this.views;
    // every number here except the attention weights on one colour scale
    const max = colourMax(x, layer, m);
    vs.x.update([x], { max });
    vs.W.update(layer.W, { max });
    vs.b.update([layer.b], { max });
    vs.y.update([m.direct], { max });
    vs.X.update(m.X, { groups: N, max });
    m.weights.forEach((Wh, hd) => this.headViews[hd].update(Wh, { max: 1 }));
    vs.Z.update(m.Z, { groups: N, max });
    vs.Wo.update(m.params.Wo, { max });
    vs.Y.update(m.Y, { max });
    setText(this.scaleNote, this.t('scale', { max: num(max) }));
    const key = sameness(m.maxDiff);
    const [same, difference] = [this.t(key), gap(m.maxDiff)];
    const check = this.t('check', { same, difference });
    // (a new difference is changed text in the elements there: none made again per step)
    const checked = [...rich(check), key === 'different' ? '' : ' \u2714'];
    checked.find((n) => n.localName === 'strong')?.classList.toggle('ok', key !== 'different');
    morph(this.check, checked);
    this.announce(this.t('summary', { output: m.direct.map((v) => num(v)).join(', '), same, difference }));
  }
}

defineFigure('attention-as-dense', AsDense);
