// <attention-notation>: scalars, vectors and matrices as coloured squares.
// Attribute: value (the scalar a, -1..1).
import { FigureElement, defineFigure } from './figure-element.js';
import { h } from './dom.js';
import { slider } from './controls.js';
import { matrixView } from './matrix.view.js';
import { mathSpan } from './math.js';
import { num } from './format.js';
import { notationModel } from './notation.model.js';

const LEGEND = [-1, -0.75, -0.5, -0.25, 0, 0.25, 0.5, 0.75, 1];

class Notation extends FigureElement {
  static props = { value: { type: 'number', default: 0.8, min: -1, max: 1 } };

  static css = `
  .entities { display: flex; flex-wrap: wrap; gap: 18px 28px; align-items: flex-end; margin: 10px 0; }
  .entity { display: flex; flex-direction: column; align-items: center; gap: 4px; }
  .entity .what { font-size: 0.85em; color: var(--attention-muted); }`;

  build() {
    this.slider = slider({
      label: 'Scalar a', min: -1, max: 1, step: 0.05, value: this.state.value, prop: 'value', format: (v) => num(v),
      oninput: (value) => this.set({ value }),
    });
    this.views = {
      scalar: matrixView({ t: this.t, name: 'a', cell: 30, values: true }),
      vector: matrixView({ t: this.t, name: 'x', cell: 30, values: true }),
      matrix: matrixView({ t: this.t, name: 'W', cell: 30, values: true }),
    };
    this.legend = matrixView({ t: this.t, name: 'scale', cell: 34, values: true, digits: 1 });
    const entity = (view, tex, what) => h('div', { class: 'entity' }, [mathSpan(tex), view.el, h('span', { class: 'what' }, what)]);
    return h('div', {}, [
      h('p', { class: 'title' }, 'Numbers as coloured squares'),
      this.slider.el,
      h('div', { class: 'entities' }, [
        entity(this.views.scalar, 'a', 'scalar'),
        entity(this.views.vector, '\\boldsymbol{x}=a\\,\\hat{\\boldsymbol{x}}', 'vector (4)'),
        entity(this.views.matrix, 'W=\\boldsymbol{c}\\,\\boldsymbol{x}^{T}', 'matrix (3\u00d74)'),
      ]),
      h('div', { class: 'legend' }, ['The mapping every figure uses, here with full colour at \u00b11:', this.legend.el]),
      h('p', { class: 'note' }, 'Orange squares hold positive numbers, blue ones negative; the stronger the colour, the larger the magnitude, and zero is blank. '
        + 'Strength is relative to a full-scale value that each figure states: here 1, so a square\u2019s strength is its magnitude. '
        + 'One square is a scalar, a column of squares a vector, a grid a matrix. Hover, tap or focus a square (arrow keys move) to read its value. '
        + 'Move the slider through zero and watch every hue flip while the magnitudes stay.'),
    ]);
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
    this.announce(`a = ${num(a)}: ${a === 0 ? 'all squares blank' : `the scalar is ${a > 0 ? 'orange' : 'blue'} at ${Math.round(Math.abs(a) * 100)}% strength`}; `
      + `the vector and matrix hold ${num(Math.min(...m.matrix.data))} to ${num(Math.max(...m.matrix.data))}.`);
  }
}

defineFigure('attention-notation', Notation);
