// <attention-causal-mask>: a decoder producing tokens left to right under a
// mask the reader can choose or paint cell by cell.
// Attributes: preset="none|causal|padding|causal+padding|window|custom",
// cells="0101..." (n*n, 1 = blocked; used with preset=custom), step="1..8".
import { FigureElement, defineFigure } from './figure-element.js';
import { h, replace } from './dom.js';
import { choice, stepper } from './controls.js';
import { matrixView } from './matrix.view.js';
import { mathSpan } from './math.js';
import { count, leaders, list, num, pcts } from './format.js';
import { maxAbs } from './scale.js';
import { causalModel, presetCells, parseCells, flip, PRESETS, TOKENS, N, WINDOW } from './causal-mask.model.js';

/** The canonical cells attribute: '' for the causal cells (what an empty or unreadable one means). */
function normalizeCells(text) {
  const cells = parseCells(text);
  return cells === presetCells('causal') ? '' : cells;
}

const LABELS = { none: 'none', causal: 'causal', padding: 'padding', 'causal+padding': 'causal + padding', window: `window of ${WINDOW}`, custom: 'painted' };

class CausalMask extends FigureElement {
  static props = {
    preset: { type: 'enum', values: PRESETS, default: 'causal' },
    cells: { type: 'string', default: '', normalize: normalizeCells },
    step: { type: 'number', default: N, min: 1, max: N, integer: true },
  };

  static css = `
  .tokens { display: flex; flex-wrap: wrap; gap: 6px; margin: 4px 0 8px; font-family: ui-monospace, monospace; }
  .tok { padding: 3px 8px; border-radius: 6px; border: 1px solid var(--attention-border); background: var(--attention-panel); }
  .tok.future { opacity: 0.35; border-style: dashed; }
  .tok.now { border-color: var(--attention-accent); border-width: 2px; }
  .mats { display: flex; flex-wrap: wrap; gap: 14px 16px; align-items: flex-end; }
  .mask rect.cell { cursor: pointer; }
  .warn { color: var(--attention-negative); }
  .choice .opts { flex-wrap: wrap; }`;

  build() {
    this.presetChoice = choice({
      label: 'Mask', value: this.state.preset, prop: 'preset', options: PRESETS.map((p) => ({ value: p, label: LABELS[p] })),
      onchange: (preset) => this.set(preset === 'custom' ? { preset, cells: this.maskCells() } : { preset }),
    });
    this.stepControl = stepper({
      steps: TOKENS.map((t, i) => `${count(i + 1, 'token')} (last: ${t})`), value: this.state.step - 1, label: 'Generated', prop: 'step', t: this.t,
      onchange: (i) => this.set({ step: i + 1 }),
    });
    const v = (name, opts) => matrixView({ t: this.t, name, cell: 30, rowLabels: TOKENS, colLabels: TOKENS, ...opts });
    this.views = {
      mask: v('mask', { cell: 24, onpick: (i, j) => this.set({ preset: 'custom', cells: flip(this.maskCells(), i, j) }) }),
      W: v('weights', { values: true, shares: true }),
      Y: matrixView({ t: this.t, name: 'Y', cell: 17, rowLabels: TOKENS }),
    };
    this.views.mask.el.classList.add('mask');
    this.tokens = h('div', { class: 'tokens', 'aria-hidden': 'true' });
    this.status = h('p', { class: 'note' });
    return h('div', {}, [
      h('p', { class: 'title' }, 'Masks: which keys may each query see?'),
      this.tokens,
      h('div', { class: 'controls' }, [this.presetChoice.el]),
      h('div', { class: 'controls' }, [this.stepControl.el]),
      h('div', { class: 'mats' }, [this.views.mask.el, this.views.W.el, this.views.Y.el]),
      this.status,
      h('p', { class: 'note' }, ['A blocked cell (blue) adds ', mathSpan('-\\infty'), ' to that score, so its weight after the softmax is exactly 0 and the row’s other weights share the whole 1. '
        + 'A decoder uses the causal mask: token i may look only at tokens 1 to i, so the rows already computed never change as new tokens arrive (press \u25B6). '
        + 'Padding hides filler keys; a sliding window keeps only recent ones. Click any square of the mask, or focus it and press Enter, to paint your own. '
        + 'Colours: the mask and the weights are full at 1, Y at its largest magnitude.']),
    ]);
  }

  /** The mask drawn: the preset's cells, or the `cells` attribute's with `custom` (`cells` itself is the attribute's property). */
  maskCells() {
    return this.state.preset === 'custom' ? parseCells(this.state.cells) : presetCells(this.state.preset);
  }

  syncControls() {
    if (!this.presetChoice) return;
    this.presetChoice.set(this.state.preset);
    this.stepControl.set(this.state.step - 1);
  }

  render() {
    const m = causalModel(this.attn, { cells: this.maskCells(), step: this.state.step });
    const t = m.tokens.length;
    replace(this.tokens, TOKENS.map((tok, i) => h('span', { class: `tok${i >= t ? ' future' : i === t - 1 ? ' now' : ''}` }, tok)));
    const neg = { rows: t, cols: t, data: m.blocked.data.map((b) => -b) };
    this.views.mask.update(neg, { max: 1, rowLabels: m.tokens, colLabels: m.tokens });
    this.views.W.update(m.weights, { max: 1, rowLabels: m.tokens, colLabels: m.tokens });
    this.views.Y.update(m.output, { max: maxAbs(m.output.data), rowLabels: m.tokens });
    const sums = m.rowSums.map((s, i) => (m.emptyRows.includes(i) ? '0 (no key left)' : num(s, 3)));
    const empty = m.emptyRows.map((i) => i + 1);
    replace(this.status, [`Row sums: ${sums.join(', ')}. `,
      empty.length ? h('span', { class: 'warn' }, `${empty.length > 1 ? `Rows ${list(empty.map(String))} see` : `Row ${empty[0]} sees`} no key: weights and output are all zero there (PyTorch would give NaN).`) : '']);
    const last = t - 1;
    const w = Array.from(m.weights.data.subarray(last * t, t * t));
    const shown = pcts(w);
    const top = leaders(w, shown);
    const looks = m.emptyRows.includes(last) ? 'sees no key'
      : top.length > 1 ? `attends most to ${list(top.map((j) => m.tokens[j]))} (${shown[top[0]]} each)`
        : `attends most to ${m.tokens[top[0]]} (${shown[top[0]]})`;
    this.announce(`Mask ${LABELS[this.state.preset]}, ${count(t, 'token')}. The newest token, ${m.tokens[last]}, ${looks}.`);
  }
}

defineFigure('attention-causal-mask', CausalMask);
