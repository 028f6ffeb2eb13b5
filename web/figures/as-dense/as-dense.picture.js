// as-dense.picture.js: the picture of <attention-as-dense> without a browser
// (web/kit/picture/): the dense layer, the same layer as multi-head
// attention with one head per input, and the check that they agree.
import { column, flow, op, paragraph } from '../../kit/picture/layout.js';
import { matrix } from '../../kit/picture/matrix.js';
import { gap, num, sameness } from '../../kit/format.js';
import { colourMax, denseModel, denseLayer, N, M } from './as-dense.model.js';
import { parseX } from './as-dense.props.js';

const inputs = Array.from({ length: N }, (_, i) => `x${i + 1}`);
const outputs = Array.from({ length: M }, (_, c) => `y${c + 1}`);

export default function picture(pen) {
  const { t } = pen;
  const x = parseX(pen.state.x);
  const layer = denseLayer(Math.round(pen.state.seed));
  const m = denseModel(pen.attn, x, layer);
  const max = colourMax(x, layer, m);
  const cols = inputs.flatMap((name, i) => [name, t('tag', { n: i + 1 })]);
  const v = (Mx, name, opts) => matrix(pen, Mx, { name, cell: 34, values: true, max, ...opts });
  const key = sameness(m.maxDiff);
  const [same, difference] = [t(key), gap(m.maxDiff)];
  return {
    body: column([
      paragraph(pen, t('denseLayer'), { size: 13, bold: true }),
      flow([v([x], 'x', { colLabels: inputs }), op(pen, '\u00d7'), v(layer.W, 'W', { rowLabels: inputs, colLabels: outputs }), op(pen, '+'),
        v([layer.b], 'b', { colLabels: outputs }), op(pen, '='), v([m.direct], 'y', { colLabels: outputs })], pen.inner, { gap: 8, align: 'middle' }),
      paragraph(pen, t('asAttention', { heads: N }), { size: 13, bold: true }),
      flow([v(m.X, 'X', { cell: 28, digits: 1, colLabels: cols, groups: N }), op(pen, '\u2192'),
        ...m.weights.map((Wh, hd) => matrix(pen, Wh, { name: t('head', { n: hd + 1 }), cell: 12, max: 1 })), op(pen, '\u2192'),
        v(m.Z, 'Z', { cell: 28, digits: 1, groups: N })], pen.inner, { gap: 8, align: 'middle' }),
      flow([op(pen, 'Z \u00d7'), v(m.params.Wo, 'W\u1d3c', { cell: 28, digits: 1, rowLabels: cols, colLabels: [...outputs, '', '', '', ''].slice(0, 2 * N) }), op(pen, '+ b\u1d3c ='),
        v(m.Y, 'Y', { cell: 32, colLabels: [...outputs, '\u00b7', '\u00b7', '\u00b7', '\u00b7'].slice(0, 2 * N) })], pen.inner, { gap: 8, align: 'middle' }),
      paragraph(pen, `${t('check', { same, difference })}${key === 'different' ? '' : ' \u2714'}`, { size: 13, width: pen.inner }),
      paragraph(pen, t('scale', { max: num(max) }), { size: 12, color: 'muted', width: pen.inner }),
    ], { gap: 10 }),
    summary: t('summary', { output: m.direct.map((val) => num(val)).join(', '), same, difference }),
  };
}
