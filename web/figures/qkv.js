// <attention-qkv>: users as queries, movies as keys and values. Pick any
// cell of W^Q, W^K or W^V and change it; every number after it follows.
import { FigureElement, defineFigure } from './figure-element.js';
import { h } from './dom.js';
import { slider } from './controls.js';
import { matrixView } from './matrix.view.js';
import { mathSpan } from './math.js';
import { num, pct } from './format.js';
import { qkvModel, defaultWeights, FEATURES, USERS, MOVIES, MATRICES } from './qkv.model.js';

const ROLE = { Wq: 'query', Wk: 'key', Wv: 'value' };

class Qkv extends FigureElement {
  static css = `
  .flow { display: flex; flex-wrap: wrap; gap: 14px 22px; align-items: flex-start; margin: 8px 0; }
  .eq { display: flex; align-items: center; gap: 6px; flex-wrap: wrap; }
  .tag { font-size: 0.8em; font-weight: 700; }
  .tag.query { color: var(--attention-query); } .tag.key { color: var(--attention-key); } .tag.value { color: var(--attention-value); }
  .mat rect.mark { stroke: var(--attention-accent); stroke-width: 3; }`;

  build() {
    this.W = defaultWeights();
    this.sel = { k: 'Wq', i: 0, j: 0 };
    const v = (name, opts) => matrixView({ name, cell: 30, values: true, ...opts });
    this.views = {
      Xu: v('users', { rowLabels: USERS.names, colLabels: FEATURES }),
      XmK: v('movies', { rowLabels: MOVIES.names, colLabels: FEATURES }),
      XmV: v('movies', { rowLabels: MOVIES.names, colLabels: FEATURES }),
      Q: v('Q', {}), K: v('K', {}), V: v('V', {}),
      weights: v('weights', { rowLabels: USERS.names, colLabels: MOVIES.names }),
      output: v('ideal movie', { rowLabels: USERS.names, colLabels: FEATURES }),
    };
    for (const k of MATRICES) {
      this.views[k] = v(`W${k[1].toUpperCase()}`, { rowLabels: FEATURES, onpick: (i, j) => { this.sel = { k, i, j }; this.syncEditor(); this.invalidate(); } });
    }
    this.editor = slider({
      label: 'Selected weight', min: -2, max: 2, step: 0.05, value: 1, format: (x) => num(x),
      oninput: (x) => { this.W[this.sel.k].data[this.sel.i * 3 + this.sel.j] = x; this.invalidate(); },
    });
    this.selLabel = h('span', { class: 'note' });
    const proj = (x, w, out, role) => h('div', { class: 'eq' }, [
      h('span', { class: `tag ${role}` }, role), this.views[x].el, h('span', { class: 'op' }, '\u00d7'), this.views[w].el,
      h('span', { class: 'op' }, '='), this.views[out].el]);
    const reset = h('button', { type: 'button', onclick: () => { this.W = defaultWeights(); this.syncEditor(); this.invalidate(); } }, 'Reset weights');
    return h('div', {}, [
      h('p', { class: 'title' }, 'Queries, keys and values: an ideal movie for each user'),
      h('div', { class: 'flow' }, [proj('Xu', 'Wq', 'Q', 'query'), proj('XmK', 'Wk', 'K', 'key'), proj('XmV', 'Wv', 'V', 'value')]),
      h('div', { class: 'controls' }, [this.editor.el, this.selLabel, reset]),
      h('div', { class: 'flow' }, [
        h('div', { class: 'eq' }, [mathSpan('\\mathrm{softmax}\\!\\left(QK^T/\\sqrt{3}\\right)='), this.views.weights.el]),
        h('div', { class: 'eq' }, [mathSpan('\\times V ='), this.views.output.el]),
      ]),
      h('p', { class: 'note' }, ['Each user’s query is compared with every movie’s key; the softmax of those scores says how much of each movie’s value goes into ',
        mathSpan('\\boldsymbol{y}_j=\\sum_i w_{ij}\\boldsymbol{v}_i'),
        ', that user’s ideal movie. Click or focus a square of a W matrix (Enter picks it), then move the slider.']),
    ]);
  }

  syncEditor() {
    const { k, i, j } = this.sel;
    this.editor.set(this.W[k].data[i * 3 + j]);
    this.selLabel.textContent = `editing W${k[1].toUpperCase()}[${FEATURES[i]}, ${j + 1}] (the ${ROLE[k]} projection)`;
  }

  render() {
    const m = qkvModel(this.attn, this.W);
    for (const k of ['Xu', 'Q', 'K', 'V', 'output']) this.views[k].update(m[k]);
    this.views.XmK.update(m.Xm);
    this.views.XmV.update(m.Xm);
    this.views.weights.update(m.weights, { max: 1 });
    for (const k of MATRICES) {
      this.views[k].update(this.W[k], { max: 2, marks: k === this.sel.k ? new Set([`${this.sel.i},${this.sel.j}`]) : null });
    }
    if (!this.selLabel.textContent) this.syncEditor();
    const w = m.weights.data;
    const favourite = USERS.names.map((u, j) => {
      const row = Array.from(w.subarray(j * 3, j * 3 + 3));
      const i = row.indexOf(Math.max(...row));
      return `${u} takes ${pct(row[i])} of ${MOVIES.names[i]}`;
    });
    this.announce(`${favourite.join('; ')}.`);
  }
}

defineFigure('attention-qkv', Qkv);
