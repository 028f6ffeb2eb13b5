// <attention-multi-head-matmul>: multi-head attention as a few wide matrix
// products, every shape labelled. Attribute: heads (1, 2 or 4).
import { FigureElement, defineFigure } from './figure-element.js';
import { h, replace } from './dom.js';
import { choice } from './controls.js';
import { matrixView } from './matrix.view.js';
import { mathSpan } from './math.js';
import { multiHeadMatmul, HEAD_COUNTS, TOKENS, D_MODEL, X, WEIGHTS } from './multi-head-matmul.model.js';

class MultiHeadMatmul extends FigureElement {
  static props = { heads: { type: 'enum', values: ['1', '2', '4'], default: '2' } };

  static css = `
  .eq { display: flex; flex-wrap: wrap; align-items: center; gap: 6px 8px; margin: 6px 0 12px; }
  .heads { display: flex; flex-wrap: wrap; gap: 10px 22px; margin: 6px 0 12px; }
  .head { display: flex; flex-wrap: wrap; align-items: center; gap: 6px; padding: 6px; border-radius: 8px; border-left: 4px solid; background: var(--attention-panel); }
  h4 { margin: 12px 0 2px; font-size: 0.95em; }
  .check { font-variant-numeric: tabular-nums; }`;

  build() {
    this.choice = choice({
      label: 'Heads h', value: this.state.heads, options: HEAD_COUNTS.map((n) => ({ value: String(n), label: String(n) })),
      onchange: (heads) => this.set({ heads }),
    });
    const v = (name, opts) => matrixView({ name, cell: 16, groups: true, ...opts });
    this.v = { X: v('X', { rowLabels: TOKENS, groups: false }), Wq: v('WQ'), Q: v('Q', { rowLabels: TOKENS }), Z: v('Z', { rowLabels: TOKENS }), Wo: v('WO', { groups: false }), Y: v('Y', { rowLabels: TOKENS, groups: false }) };
    this.headsEl = h('div', { class: 'heads' });
    this.check = h('p', { class: 'check' });
    this.dims = h('p', { class: 'note' });
    return h('div', {}, [
      h('p', { class: 'title' }, 'Multi-head attention is a few wide matrix products'),
      this.choice.el,
      h('h4', {}, ['1. One wide projection per role (the same for ', mathSpan('K'), ' and ', mathSpan('V'), ')']),
      h('div', { class: 'eq' }, [this.v.X.el, h('span', { class: 'op' }, '\u00d7'), this.v.Wq.el, h('span', { class: 'op' }, '='), this.v.Q.el]),
      h('h4', {}, '2. Split the columns into h heads; each attends on its own'),
      this.headsEl,
      h('h4', {}, '3. Concatenate the heads’ outputs and project once'),
      h('div', { class: 'eq' }, [this.v.Z.el, h('span', { class: 'op' }, '\u00d7'), this.v.Wo.el, h('span', { class: 'op' }, '='), this.v.Y.el]),
      this.check,
      this.dims,
    ]);
  }

  syncControls() {
    this.choice?.set(this.state.heads);
  }

  render() {
    const heads = Number(this.state.heads);
    const m = multiHeadMatmul(this.attn, heads);
    this.v.X.update(X);
    this.v.Wq.update(WEIGHTS.Wq, { groups: heads });
    this.v.Q.update(m.Q, { groups: heads });
    this.v.Z.update(m.Z, { groups: heads });
    this.v.Wo.update(WEIGHTS.Wo);
    this.v.Y.update(m.stacked.output);
    replace(this.headsEl, m.perHead.map((hd, i) => {
      const color = `var(--attention-head-${i + 1})`;
      const views = [matrixView({ name: `Q${i + 1}`, cell: 16 }), matrixView({ name: `softmax(Q${i + 1}K${i + 1}\u1d40/\u221a${m.dh})`, cell: 16 }), matrixView({ name: `Z${i + 1}`, cell: 16 })];
      views[0].update(hd.Q);
      views[1].update(hd.weights, { max: 1 });
      views[2].update(hd.Z);
      return h('div', { class: 'head', style: `border-color:${color}` }, [
        views[0].el, h('span', { class: 'op' }, '\u2192'), views[1].el, h('span', { class: 'op' }, '\u00d7 V\u2192'), views[2].el]);
    }));
    this.check.textContent = `Same result as running ${heads} separate head${heads > 1 ? 's' : ''} with their own ${D_MODEL}\u00d7${m.dh} matrices, then concatenating: largest difference ${m.difference.toExponential(1)} (float32 rounding).`;
    replace(this.dims, ['Shapes: ', mathSpan(`X: ${TOKENS.length}\\times${D_MODEL},\\; W^Q: ${D_MODEL}\\times${D_MODEL},\\; Q_i: ${TOKENS.length}\\times${m.dh},\\; Z: ${TOKENS.length}\\times${D_MODEL},\\; W^O: ${D_MODEL}\\times${D_MODEL}`),
      `. More heads do not add parameters: the same ${D_MODEL}\u00d7${D_MODEL} matrices are cut into narrower slices (coloured bars).`]);
    this.announce(`${heads} head${heads > 1 ? 's' : ''} of width ${m.dh}; stacked and separate computations differ by at most ${m.difference.toExponential(1)}.`);
  }
}

defineFigure('attention-multi-head-matmul', MultiHeadMatmul);
