// <attention-causal-mask>: a decoder producing tokens left to right under a
// mask the reader can choose or paint cell by cell.
// Attributes: preset="none|causal|padding|causal+padding|window|custom",
// cells="0101..." (n*n, 1 = blocked; used with preset=custom), step="1..n".
// A page's own tokens: a <script type="application/json" data-example>
// child holding a list of 2 to 10 strings (parseExample in the model).
import { props } from './causal-mask.props.js';
import { FigureElement, defineFigure } from '../../kit/figure-element.js';
import { h, replaceFor, setAttr } from '../../kit/dom.js';
import { choice, stepper } from '../../kit/controls.js';
import { matrixView } from '../../kit/draw/matrix-view.js';
import { rich } from '../../kit/rich.js';
import { leaders, num, pcts } from '../../kit/format.js';
import { maxAbs } from '../../kit/draw/scale.js';
import { causalModel, presetCells, parseCells, parseExample, flip, PRESETS, TOKENS, WINDOW } from './causal-mask.model.js';

class CausalMask extends FigureElement {
  static strings = { en: () => import('./causal-mask.strings.en.js'), zh: () => import('./causal-mask.strings.zh.js') };

  static props = props;

  static css = `
  .tokens { display: flex; flex-wrap: wrap; gap: 6px; margin: 4px 0 8px; font-family: ui-monospace, monospace; }
  .tok { padding: 3px 8px; border-radius: 6px; border: 1px solid var(--attention-border); background: var(--attention-panel); white-space: pre; }
  .tok.future { opacity: 0.35; border-style: dashed; }
  .tok.now { border-color: var(--attention-accent); border-width: 2px; }
  .mats { display: flex; flex-wrap: wrap; gap: 14px 16px; align-items: flex-end; }
  .warn { color: var(--attention-negative); }
  .choice .opts { flex-wrap: wrap; }`;

  tokens = TOKENS;

  /** The page's own tokens (called once, before build). */
  useExample(data) {
    this.tokens = parseExample(data);
    if (!this.hasAttribute('step')) this.state.step = this.tokens.length;
  }

  presetLabel(p) {
    return this.t(p, { n: WINDOW });
  }

  build() {
    const toks = this.tokens;
    this.presetChoice = choice({
      label: this.t('mask'), value: this.state.preset, prop: 'preset', options: PRESETS.map((p) => ({ value: p, label: this.presetLabel(p) })),
      onchange: (preset) => this.set(preset === 'custom' ? { preset, cells: this.maskCells() } : { preset }),
    });
    this.stepControl = stepper({
      steps: toks.map((token, i) => this.t('stepLabel', { n: i + 1, token })), value: this.generated() - 1, label: this.t('generated'), prop: 'step', t: this.t,
      onchange: (i) => this.set({ step: i + 1 }),
    });
    // every token's row and column from the start: a step draws the next one in, without a new layout
    const all = { rows: toks.length, cols: toks.length };
    const v = (name, opts) => matrixView({ t: this.t, name, cell: 30, rowLabels: toks, colLabels: toks, size: all, ...opts });
    this.views = {
      mask: v(this.t('maskName'), { cell: 24, onpick: (i, j) => this.set({ preset: 'custom', cells: flip(this.maskCells(), i, j, toks.length) }) }),
      W: v(this.t('weights'), { values: true, shares: true }),
      Y: matrixView({ t: this.t, name: 'Y', cell: 17, rowLabels: toks, size: { rows: toks.length } }),
    };
    this.views.mask.el.classList.add('mask');
    this.tokenEls = toks.map((tok) => h('span', { class: 'tok' }, tok)); // made once; a step restyles them
    this.tokenRow = h('div', { class: 'tokens', 'aria-hidden': 'true' }, this.tokenEls);
    this.status = h('p', { class: 'note' });
    return h('div', {}, [
      h('p', { class: 'title' }, this.t('title')),
      this.tokenRow,
      h('div', { class: 'controls' }, [this.presetChoice.el]),
      h('div', { class: 'controls' }, [this.stepControl.el]),
      h('div', { class: 'mats' }, [this.views.mask.el, this.views.W.el, this.views.Y.el]),
      this.status,
      h('p', { class: 'note' }, rich(this.t('note'))),
    ]);
  }

  /** How many tokens exist yet: the step, at most the tokens there are. */
  generated() {
    return Math.min(this.state.step, this.tokens.length);
  }

  linkable() {
    return this.tokens === TOKENS; // a link cannot carry the page's tokens
  }

  /** The mask drawn: the preset's cells, or the `cells` attribute's with `custom` (`cells` itself is the attribute's property). */
  maskCells() {
    return this.state.preset === 'custom' ? parseCells(this.state.cells, this.tokens.length) : presetCells(this.state.preset, this.tokens);
  }

  rehearsal() {
    return { preset: PRESETS.find((p) => p !== this.state.preset) }; // (the mask's choice)
  }

  syncControls() {
    if (!this.presetChoice) return;
    this.presetChoice.set(this.state.preset);
    this.stepControl.set(this.generated() - 1);
  }

  render() {
    const m = causalModel(this.attn, { tokens: this.tokens, cells: this.maskCells(), step: this.generated() });
    const t = m.tokens.length;
    this.tokenEls.forEach((el, i) => setAttr(el, 'class', `tok${i >= t ? ' future' : i === t - 1 ? ' now' : ''}`));
    const neg = { rows: t, cols: t, data: m.blocked.data.map((b) => -b) };
    this.views.mask.update(neg, { max: 1 });
    this.views.W.update(m.weights, { max: 1 });
    this.views.Y.update(m.output, { max: maxAbs(m.output.data) });
    const sums = m.rowSums.map((s, i) => (m.emptyRows.includes(i) ? this.t('noKeyLeft') : num(s, 3)));
    const empty = m.emptyRows.map((i) => i + 1);
    const rowSums = this.t('rowSums', { sums: sums.join(', ') });
    replaceFor(this.status, `${rowSums}|${empty}`, () => [rowSums, empty.length ? h('span', { class: 'warn' }, this.t('emptyRows', { rows: empty })) : '']);
    const last = t - 1;
    const w = Array.from(m.weights.data.subarray(last * t, t * t));
    const shown = pcts(w);
    const top = leaders(w, shown);
    const looks = m.emptyRows.includes(last) ? this.t('seesNoKey')
      : top.length > 1 ? this.t('attendsMostTie', { tokens: top.map((j) => m.tokens[j]), share: shown[top[0]] })
        : this.t('attendsMost', { token: m.tokens[top[0]], share: shown[top[0]] });
    this.announce(this.t('summary', { preset: this.presetLabel(this.state.preset), n: t, token: m.tokens[last], looks }));
  }
}

defineFigure('attention-causal-mask', CausalMask);
