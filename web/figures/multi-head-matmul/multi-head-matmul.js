// <attention-multi-head-matmul>: multi-head attention as a few wide matrix
// products, every shape labelled. Attribute: heads (1, 2 or 4).
import { theme } from '../../kit/draw/colors.js';
import { props } from './multi-head-matmul.props.js';
import { FigureElement, defineFigure } from '../../kit/figure-element.js';
import { h, replace, setText } from '../../kit/dom.js';
import { keepIn, layOut, showOne } from '../../kit/keep.js';
import { choice } from '../../kit/controls.js';
import { matrixView } from '../../kit/draw/matrix-view.js';
import { mathSpan, tex } from '../../kit/math.js';
import { rich } from '../../kit/rich.js';
import { gap, num, sameness } from '../../kit/format.js';
import { maxAbs } from '../../kit/draw/scale.js';
import { multiHeadMatmul, HEAD_COUNTS, TOKENS, D_MODEL, X, WEIGHTS } from './multi-head-matmul.model.js';

class MultiHeadMatmul extends FigureElement {
  static strings = { en: () => import('./multi-head-matmul.strings.en.js'), zh: () => import('./multi-head-matmul.strings.zh.js') };

  static props = props;

  static css = `
  .eq { display: flex; flex-wrap: wrap; align-items: center; gap: 6px 8px; margin: 6px 0 12px; }
  .heads { display: flex; flex-wrap: wrap; gap: 10px 22px; margin: 6px 0 12px; }
  .head { display: flex; flex-wrap: wrap; align-items: center; gap: 6px; padding: 6px; border-radius: 8px; border-left: 4px solid; background: var(--attention-panel); }
  .sub { margin: 12px 0 2px; font-size: 0.95em; }
  .check { font-variant-numeric: tabular-nums; }`;

  build() {
    this.choice = choice({
      label: this.t('heads'), value: this.state.heads, prop: 'heads', options: HEAD_COUNTS.map((n) => ({ value: String(n), label: String(n) })),
      onchange: (heads) => this.set({ heads }),
    });
    const v = (name, opts) => matrixView({ t: this.t, name, cell: 16, groups: true, ...opts });
    this.v = { X: v('X', { rowLabels: TOKENS, groups: false }), Wq: v('WQ'), Q: v('Q', { rowLabels: TOKENS }), Z: v('Z', { rowLabels: TOKENS }), Wo: v('WO', { groups: false }), Y: v('Y', { rowLabels: TOKENS, groups: false }) };
    // X and W^O are the same for every head count: drawn once
    this.v.X.update(X, { max: 1 });
    this.v.Wo.update(WEIGHTS.Wo, { max: 1 });
    this.headsEl = h('div'); // each head count's heads, made once (draw): the one shown and the others kept
    this.check = h('p', { class: 'check' });
    // the shapes: the names as math, the sizes as text; only Q_i's width and the colour scale change with h
    const shape = (name, rows, cols) => [mathSpan(name), `: ${rows}\u00d7${cols}`];
    this.qShape = h('span');
    this.colours = document.createTextNode('');
    this.dims = h('p', { class: 'note' }, [this.t('shapes'), ...shape(tex`X`, TOKENS.length, D_MODEL), ', ', ...shape(tex`W^Q`, D_MODEL, D_MODEL), ', ',
      this.qShape, ', ', ...shape(tex`Z`, TOKENS.length, D_MODEL), ', ', ...shape(tex`W^O`, D_MODEL, D_MODEL), this.colours]);
    this.shown = new Map(); // head count -> what draw() made for it
    this.drawn = 0;
    return h('div', {}, [
      h('p', { class: 'title' }, this.t('title')),
      this.choice.el,
      h('div', { class: 'sub' }, rich(this.t('step1'))),
      h('div', { class: 'eq' }, [this.v.X.el, h('span', { class: 'op' }, '\u00d7'), this.v.Wq.el, h('span', { class: 'op' }, '='), this.v.Q.el]),
      h('div', { class: 'sub' }, this.t('step2')),
      this.headsEl,
      h('div', { class: 'sub' }, this.t('step3')),
      h('div', { class: 'eq' }, [this.v.Z.el, h('span', { class: 'op' }, '\u00d7'), this.v.Wo.el, h('span', { class: 'op' }, '='), this.v.Y.el]),
      this.check,
      this.dims,
    ]);
  }

  rehearsal() {
    return { heads: this.state.heads === '4' ? '2' : '4' }; // (the choice of heads)
  }

  syncControls() {
    this.choice?.set(this.state.heads);
  }

  render() {
    const heads = Number(this.state.heads);
    // everything below depends on the head count alone (three values): made once each, then reused
    const shown = this.shown.get(heads) ?? this.draw(heads);
    this.shown.set(heads, shown);
    const { m, act } = shown;
    this.v.Wq.update(WEIGHTS.Wq, { groups: heads, max: 1 });
    this.v.Q.update(m.Q, { groups: heads, max: act });
    this.v.Z.update(m.Z, { groups: heads, max: act });
    this.v.Y.update(m.stacked.output, { max: act });
    if (this.drawn !== heads) {
      this.drawn = heads;
      showOne(this.headsEl, shown.heads, { stack: false }); // (one head's place is a quarter of four heads')
      setText(this.check, shown.check);
      replace(this.qShape, shown.qShape);
      setText(this.colours, shown.colours);
    }
    // the heads' canvases keep their pixels while they are out of the figure: painted again only in a new theme
    const colours = theme(this.shadowRoot);
    if (shown.paintedIn !== colours) {
      shown.paintedIn = colours;
      shown.paintHeads();
    }
    this.announce(shown.summary);
    this.prepare();
  }

  // The head counts not shown yet, made one per task after a drawing (their
  // kernels' results and heads, painted and kept out of sight): a reader's
  // first choice of one then shows it (at a phone's speed, making it there
  // took two to four times a later choice of it).
  prepare() {
    this.inTasks(() => {
      const heads = HEAD_COUNTS.find((n) => !this.shown.has(n));
      if (heads === undefined) return false;
      const made = this.draw(heads);
      this.shown.set(heads, made);
      keepIn(this.headsEl, made.heads);
      made.paintedIn = theme(this.shadowRoot);
      made.paintHeads();
      layOut(made.heads);
      return true;
    });
  }

  /** The kernels' results for `heads` and the parts of the figure that show only them. */
  draw(heads) {
    const m = multiHeadMatmul(this.attn, heads);
    // inputs and weights lie in [-1, 1]; Q, Z, Y and their per-head slices share one scale
    const act = maxAbs([m.Q, m.Z, m.stacked.output].flatMap((M) => Array.from(M.data)));
    const views = [];
    const headViews = m.perHead.map((hd, i) => {
      const color = `var(--attention-head-${i + 1})`;
      const [Q, W, Z] = [matrixView({ t: this.t, name: `Q${i + 1}`, cell: 16 }), matrixView({ t: this.t, name: `softmax(Q${i + 1}K${i + 1}\u1d40/\u221a${m.dh})`, cell: 16 }), matrixView({ t: this.t, name: `Z${i + 1}`, cell: 16 })];
      views.push(() => { Q.update(hd.Q, { max: act }); W.update(hd.weights, { max: 1 }); Z.update(hd.Z, { max: act }); });
      return h('div', { class: 'head', style: `border-color:${color}` }, [
        Q.el, h('span', { class: 'op' }, '\u2192'), W.el, h('span', { class: 'op' }, '\u00d7 V\u2192'), Z.el]);
    });
    const words = { heads, d: D_MODEL, dh: m.dh, same: this.t(sameness(m.difference)), gap: gap(m.difference) };
    return {
      m,
      act,
      heads: h('div', { class: 'heads' }, headViews),
      paintHeads: () => views.forEach((paint) => paint()), // once they are in the figure
      check: this.t('check', words),
      qShape: [mathSpan(tex`Q_i`), `: ${TOKENS.length}\u00d7${m.dh}`],
      colours: this.t('colours', { d: D_MODEL, act: num(act) }),
      summary: this.t('summary', words),
    };
  }
}

defineFigure('attention-multi-head-matmul', MultiHeadMatmul);
