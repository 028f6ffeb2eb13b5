// notation.picture.js: the picture of <attention-notation> without a browser
// (web/kit/picture/): the scalar, the vector and the matrix as coloured
// squares with their values, and the colour scale, for the attribute's a.
import { column, flow, label, paragraph, row } from '../../kit/picture/layout.js';
import { matrix } from '../../kit/picture/matrix.js';
import { num } from '../../kit/format.js';
import { notationModel, BASE_VECTOR, COLUMN } from './notation.model.js';

const LEGEND = [-1, -0.75, -0.5, -0.25, 0, 0.25, 0.5, 0.75, 1];

export default function picture(pen) {
  const { t } = pen;
  const a = pen.state.value;
  const m = notationModel(pen.attn, a);
  const entity = (formula, M, name, what) => column([
    label(pen, formula, { size: 14, attrs: { 'font-style': 'italic' } }),
    matrix(pen, M, { name, cell: 30, values: true, max: 1 }),
    label(pen, what, { size: 12, color: 'muted' }),
  ], { gap: 4, align: 'center' });
  const scalar = a === 0 ? t('allBlank') : t('strength', { colour: t(a > 0 ? 'orange' : 'blue'), percent: Math.round(Math.abs(a) * 100) });
  return {
    body: column([
      paragraph(pen, pen.pt('setting', { name: t('scalarA'), value: num(a) }), { size: 13 }),
      flow([
        entity('a', m.scalar, 'a', t('scalar')),
        entity('x = a x\u0302', m.vector, 'x', t('vector', { n: BASE_VECTOR.length })),
        entity('W = c x\u1d40', m.matrix, 'W', t('matrix', { rows: COLUMN.length, cols: BASE_VECTOR.length })),
      ], pen.inner, { gap: 28, align: 'bottom' }),
      flow([paragraph(pen, t('legend'), { size: 12, color: 'muted', width: Math.min(pen.inner, 300) }),
        matrix(pen, [LEGEND], { name: t('scale'), cell: 34, values: true, digits: 1, max: 1 })], pen.inner, { gap: 8, align: 'middle' }),
    ], { gap: 12 }),
    summary: t('summary', { a: num(a), scalar, min: num(Math.min(...m.matrix.data)), max: num(Math.max(...m.matrix.data)) }),
  };
}
