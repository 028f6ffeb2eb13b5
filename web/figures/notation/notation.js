// <attention-notation>: scalars, vectors and matrices as coloured squares.
// Attribute: value (the scalar a, -1..1).
import { props } from './notation.props.js';
import { FigureElement, defineFigure } from '../../kit/figure-element.js';
import { h } from '../../kit/dom.js';
import { slider } from '../../kit/controls.js';
import { matrixView } from '../../kit/draw/matrix-view.js';
import { mathSpan, tex } from '../../kit/math.js';
import { num } from '../../kit/format.js';
import { notationModel, BASE_VECTOR, COLUMN } from './notation.model.js';

const LEGEND = [-1, -0.75, -0.5, -0.25, 0, 0.25, 0.5, 0.75, 1];

class Notation extends FigureElement {
  static strings = { en: () => import('./notation.strings.en.js'), zh: () => import('./notation.strings.zh.js') };

  static props = props;

  static css = `
  .entities { display: flex; flex-wrap: wrap; gap: 18px 28px; align-items: flex-end; margin: 10px 0; }
  .entity { display: flex; flex-direction: column; align-items: center; gap: 4px; }
  .entity .what { font-size: 0.85em; color: var(--attention-muted); }`;

  build() {
    this.slider = slider({
      label: this.t('scalarA'), min: -1, max: 1, step: 0.05, value: this.state.value, prop: 'value', format: (v) => num(v),
      oninput: (value) => this.set({ value }),
    });
    this.views = {
      scalar: matrixView({ t: this.t, name: 'a', cell: 30, values: true }),
      vector: matrixView({ t: this.t, name: 'x', cell: 30, values: true }),
      matrix: matrixView({ t: this.t, name: 'W', cell: 30, values: true }),
    };
    this.legend = matrixView({ t: this.t, name: this.t('scale'), cell: 34, values: true, digits: 1 });
    const entity = (view, formula, what) => h('div', { class: 'entity' }, [mathSpan(formula), view.el, h('span', { class: 'what' }, what)]);
    return h('div', {}, [
      h('p', { class: 'title' }, this.t('title')),
      this.slider.el,
      h('div', { class: 'entities' }, [
        entity(this.views.scalar, tex`a`, this.t('scalar')),
        entity(this.views.vector, tex`\boldsymbol{x}=a\,\hat{\boldsymbol{x}}`, this.t('vector', { n: BASE_VECTOR.length })),
        entity(this.views.matrix, tex`W=\boldsymbol{c}\,\boldsymbol{x}^{T}`, this.t('matrix', { rows: COLUMN.length, cols: BASE_VECTOR.length })),
      ]),
      h('div', { class: 'legend' }, [this.t('legend'), this.legend.el]),
      h('p', { class: 'note' }, this.t('note')),
    ]);
  }

  rehearsal() {
    return { value: this.state.value > 0 ? -0.5 : 0.5 }; // (the slider)
  }

  syncControls() {
    this.slider?.set(this.state.value);
  }

  render() {
    const m = notationModel(this.attn, this.state.value);
    // A fixed full scale (1) so the colours show the magnitude itself.
    for (const k of ['scalar', 'vector', 'matrix']) this.views[k].update(m[k], { max: 1 });
    this.legend.update([LEGEND], { max: 1 });
    const a = this.state.value;
    const scalar = a === 0 ? this.t('allBlank') : this.t('strength', { colour: this.t(a > 0 ? 'orange' : 'blue'), percent: Math.round(Math.abs(a) * 100) });
    this.announce(this.t('summary', { a: num(a), scalar, min: num(Math.min(...m.matrix.data)), max: num(Math.max(...m.matrix.data)) }));
  }
}

defineFigure('attention-notation', Notation);
