// <attention-qkv>: users as queries, movies as keys and values. Pick any
// cell of W^Q, W^K or W^V and change it; every number after it follows.
// Attributes: wq, wk, wv ("a,b,c;d,e,f;g,h,i", each -2..2; empty = the
// identity), cell ("q.1.1" .. "v.3.3", the weight the slider edits).
import { props } from './qkv.props.js';
import { FigureElement, defineFigure } from '../../kit/figure-element.js';
import { h, setText } from '../../kit/dom.js';
import { slider } from '../../kit/controls.js';
import { matrixView } from '../../kit/draw/matrix-view.js';
import { mathSpan, tex } from '../../kit/math.js';
import { rich } from '../../kit/rich.js';
import { num } from '../../kit/format.js';
import { maxAbs } from '../../kit/draw/scale.js';
import { qkvModel, favourites, parseWeight, formatWeight, FEATURES, USERS, MOVIES, MATRICES, LIMIT } from './qkv.model.js';

const ROLE = { Wq: 'query', Wk: 'key', Wv: 'value' };
const attr = (k) => k.toLowerCase(); // Wq -> the attribute wq

class Qkv extends FigureElement {
  static strings = { en: () => import('./qkv.strings.en.js'), zh: () => import('./qkv.strings.zh.js') };

  static props = props;

  static css = `
  .flow { display: flex; flex-wrap: wrap; gap: 14px 22px; align-items: flex-start; margin: 8px 0; }
  .eq { display: flex; align-items: center; gap: 6px; flex-wrap: wrap; }
  .tag { font-size: 0.8em; font-weight: 700; }
  .tag.query { color: var(--attention-query); } .tag.key { color: var(--attention-key); } .tag.value { color: var(--attention-value); }
  .mat rect.mark { stroke-width: 3; }`;

  build() {
    const v = (name, opts) => matrixView({ t: this.t, name, cell: 30, values: true, ...opts });
    const features = FEATURES.map((f) => this.t(f));
    this.views = {
      Xu: v(this.t('users'), { rowLabels: USERS.names, colLabels: features }),
      XmK: v(this.t('movies'), { rowLabels: MOVIES.names, colLabels: features }),
      XmV: v(this.t('movies'), { rowLabels: MOVIES.names, colLabels: features }),
      Q: v('Q', {}), K: v('K', {}), V: v('V', {}),
      weights: v(this.t('weights'), { rowLabels: USERS.names, colLabels: MOVIES.names, shares: true }),
      output: v(this.t('idealMovie'), { rowLabels: USERS.names, colLabels: features }),
    };
    for (const k of MATRICES) {
      this.views[k] = v(`W${k[1].toUpperCase()}`, { rowLabels: features, onpick: (i, j) => this.set({ cell: `${k[1]}.${i + 1}.${j + 1}` }) });
    }
    this.editor = slider({
      label: this.t('selectedWeight'), min: -LIMIT, max: LIMIT, step: 0.05, value: 1, format: (x) => num(x),
      oninput: (x) => this.set(this.withSelected(x)),
    });
    this.selLabel = h('span', { class: 'note' });
    this.scaleNote = h('p', { class: 'note' });
    const proj = (x, w, out, role) => h('div', { class: 'eq' }, [
      h('span', { class: `tag ${role}` }, this.t(role)), this.views[x].el, h('span', { class: 'op' }, '\u00d7'), this.views[w].el,
      h('span', { class: 'op' }, '='), this.views[out].el]);
    const reset = h('button', { type: 'button', onclick: () => this.set({ wq: '', wk: '', wv: '' }) }, this.t('reset'));
    return h('div', {}, [
      h('p', { class: 'title' }, this.t('title')),
      h('div', { class: 'flow' }, [proj('Xu', 'Wq', 'Q', 'query'), proj('XmK', 'Wk', 'K', 'key'), proj('XmV', 'Wv', 'V', 'value')]),
      h('div', { class: 'controls' }, [this.editor.el, this.selLabel, reset]),
      h('div', { class: 'flow' }, [
        h('div', { class: 'eq' }, [mathSpan(tex`\mathrm{softmax}\!\left(QK^T/\sqrt{3}\right)=`), this.views.weights.el]),
        h('div', { class: 'eq' }, [mathSpan(tex`\times V =`), this.views.output.el]),
      ]),
      h('p', { class: 'note' }, rich(this.t('note'))),
      this.scaleNote,
    ]);
  }

  /** The three weight matrices the state holds (parsed once per state: do not change them). */
  weights() {
    const key = MATRICES.map((k) => this.state[attr(k)]).join('|');
    if (this.parsed?.key !== key) this.parsed = { key, W: Object.fromEntries(MATRICES.map((k) => [k, parseWeight(this.state[attr(k)])])) };
    return this.parsed.W;
  }

  selected() {
    const [r, i, j] = this.state.cell.split('.');
    return { k: `W${r}`, i: Number(i) - 1, j: Number(j) - 1 };
  }

  /** The state's change that gives the selected weight the value x. */
  withSelected(x) {
    const { k, i, j } = this.selected();
    const W = { ...this.weights()[k], data: this.weights()[k].data.slice() };
    W.data[i * 3 + j] = x;
    return { [attr(k)]: formatWeight(W) };
  }

  rehearsal() {
    const { k, i, j } = this.selected();
    return this.withSelected(this.weights()[k].data[i * 3 + j] > 0 ? -0.5 : 0.5); // (the selected weight's slider)
  }

  syncControls() {
    if (!this.editor) return;
    const { k, i, j } = this.selected();
    this.editor.set(this.weights()[k].data[i * 3 + j]);
    setText(this.selLabel, this.t('editing', { matrix: `W${k[1].toUpperCase()}`, feature: this.t(FEATURES[i]), column: j + 1, role: this.t(ROLE[k]) }));
  }

  render() {
    const W = this.weights();
    const m = qkvModel(this.attn, W);
    // users, movies, Q, K, V and the ideal movies live in one feature space: one colour scale
    const max = maxAbs(['Xu', 'Xm', 'Q', 'K', 'V', 'output'].flatMap((k) => Array.from(m[k].data)));
    for (const k of ['Xu', 'Q', 'K', 'V', 'output']) this.views[k].update(m[k], { max });
    this.views.XmK.update(m.Xm, { max });
    this.views.XmV.update(m.Xm, { max });
    this.views.weights.update(m.weights, { max: 1 });
    const { k: sk, i: si, j: sj } = this.selected();
    for (const k of MATRICES) {
      this.views[k].update(W[k], { max: LIMIT, marks: k === sk ? new Set([`${si},${sj}`]) : null });
    }
    setText(this.scaleNote, this.t('scale', { max: num(max), limit: LIMIT }));
    this.announce(this.t('summary', { parts: favourites(m.weights).map(({ key, ...args }) => this.t(key, args)) }));
  }
}

defineFigure('attention-qkv', Qkv);
