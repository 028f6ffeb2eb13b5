// basic.picture.js: the picture of <attention-basic> without a browser
// (web/kit/picture/): X, the weights softmax(X Xᵀ) and the outputs as
// coloured squares, and the chosen input's output as a weighted sum.
import { bar, column, flow, grid, label, op, panel, paragraph, right, row, setting, swatch } from '../../kit/picture/layout.js';
import { matrix } from '../../kit/picture/matrix.js';
import { num, pcts } from '../../kit/format.js';
import { row as rowOf, toRows } from '../../kit/mat.js';
import { basicModel, parseInputs, parseExample, largestWeight, DEFAULT_X, FEATURES, NAMES } from './basic.model.js';
import { props } from './basic.props.js';

export { parseExample as readExample };

export default function picture(pen) {
  const { t } = pen;
  const mine = pen.example;
  const { ids, names, base } = mine ? { ids: mine.names, names: mine.names, base: mine.rows } : { ids: NAMES, names: NAMES.map((n) => t(n)), base: DEFAULT_X };
  const at = ids.indexOf(pen.state.pixel);
  const j = at >= 0 ? at : Math.min(NAMES.indexOf(props.pixel.default), ids.length - 1);
  const m = basicModel(pen.attn, parseInputs(pen.state.x, base));
  const features = FEATURES.map((f) => t(f));
  const marks = new Set([0, 1, 2].map((c) => `${j},${c}`));
  const view = (M, name, opts) => matrix(pen, M, { name, cell: 27, values: true, max: 1, rowLabels: names, ...opts });
  const w = rowOf(m.weights, j);
  const shown = pcts(w);
  const top = largestWeight(w, j);
  const largest = t(top.key, { names: top.tied?.map((i) => names[i]), share: top.share, name: names[j], winner: top.winner === undefined ? '' : names[top.winner] });
  const y = toRows(m.output)[j];
  const inner = Math.min(pen.inner, 460);
  const sum = panel(pen, column([
    paragraph(pen, t(mine ? 'sumTitleMine' : 'sumTitle', { name: names[j], n: names.length }), { size: 13, width: inner - 20 }),
    grid(names.map((n, i) => [swatch(pen, m.colors.inputs[i], 18), label(pen, n, { size: 13 }), bar(pen, w[i], { width: Math.max(60, inner - 200) }), right(label(pen, shown[i], { size: 13 }))]), { gap: 8, rowGap: 4 }),
    row([swatch(pen, m.colors.outputs[j], 34), paragraph(pen, t('result', { y: y.map((v) => num(v)).join(', '), largest }), { size: 13, bold: true, width: inner - 62 })], { gap: 8 }),
  ], { gap: 6 }), { width: inner });
  return {
    body: column([
      flow([
        view(m.X, 'X', { colLabels: features, digits: 1, marks }),
        op(pen, 'softmax(XX\u1d40) \u2192'),
        view(m.weights, 'W', { colLabels: names, shares: true, marks: new Set(names.map((_, i) => `${j},${i}`)) }),
        op(pen, 'WX \u2192'),
        view(m.output, 'Y', { colLabels: features, digits: 1, marks }),
      ], pen.inner, { gap: 10, align: 'middle' }),
      setting(pen, t(mine ? 'token' : 'pixel'), names[j]),
      sum,
    ], { gap: 10 }),
    summary: t('summary', { name: names[j], names, shares: shown, largest }),
  };
}
