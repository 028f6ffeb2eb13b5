// multi-head-matmul.picture.js: the picture of <attention-multi-head-matmul>
// without a browser (web/kit/picture/): one wide projection, each head on
// its slice, the heads concatenated and projected, and the check that
// running the heads separately gives the same Y.
import { el } from '../../kit/picture/svg.js';
import { block, column, flow, op, paragraph, plainTex, row, setting } from '../../kit/picture/layout.js';
import { matrix } from '../../kit/picture/matrix.js';
import { gap, num, sameness } from '../../kit/format.js';
import { maxAbs } from '../../kit/draw/scale.js';
import { multiHeadMatmul, TOKENS, D_MODEL, X, WEIGHTS } from './multi-head-matmul.model.js';

// a head's row: a panel with a bar of the head's colour on its left
const headPanel = (pen, b, k) => block(b.w + 16, b.h + 12, (x, y) => el('rect', { x, y, width: b.w + 16, height: b.h + 12, rx: 8, fill: pen.c('panel') })
  + el('rect', { x, y, width: 4, height: b.h + 12, fill: pen.c(`head-${k + 1}`) }) + b.draw(x + 10, y + 6));

export default function picture(pen) {
  const { t } = pen;
  const heads = Number(pen.state.heads);
  const m = multiHeadMatmul(pen.attn, heads);
  const act = maxAbs([m.Q, m.Z, m.stacked.output].flatMap((M) => Array.from(M.data)));
  const v = (M, name, opts) => matrix(pen, M, { name, cell: 16, ...opts });
  const words = { heads, d: D_MODEL, dh: m.dh, same: t(sameness(m.difference)), gap: gap(m.difference) };
  const sub = (key) => paragraph(pen, plainTex(t(key)), { size: 13, bold: true, width: pen.inner });
  const shapes = `${t('shapes')}X: ${TOKENS.length}\u00d7${D_MODEL}, W\u1d60: ${D_MODEL}\u00d7${D_MODEL}, Q\u1d62: ${TOKENS.length}\u00d7${m.dh}, Z: ${TOKENS.length}\u00d7${D_MODEL}, W\u1d3c: ${D_MODEL}\u00d7${D_MODEL}${t('colours', { d: D_MODEL, act: num(act) })}`;
  return {
    body: column([
      setting(pen, t('heads'), String(heads)),
      sub('step1'),
      flow([v(X, 'X', { rowLabels: TOKENS, max: 1 }), op(pen, '\u00d7'), v(WEIGHTS.Wq, 'WQ', { groups: heads, max: 1 }), op(pen, '='), v(m.Q, 'Q', { rowLabels: TOKENS, groups: heads, max: act })], pen.inner, { gap: 8, align: 'middle' }),
      sub('step2'),
      flow(m.perHead.map((hd, i) => headPanel(pen, row([
        v(hd.Q, `Q${i + 1}`, { max: act }), op(pen, '\u2192'), v(hd.weights, `softmax(Q${i + 1}K${i + 1}\u1d40/\u221a${m.dh})`, { max: 1 }), op(pen, '\u00d7 V\u2192'), v(hd.Z, `Z${i + 1}`, { max: act }),
      ], { gap: 6 }), i)), pen.inner, { gap: 12 }),
      sub('step3'),
      flow([v(m.Z, 'Z', { rowLabels: TOKENS, groups: heads, max: act }), op(pen, '\u00d7'), v(WEIGHTS.Wo, 'WO', { max: 1 }), op(pen, '='), v(m.stacked.output, 'Y', { rowLabels: TOKENS, max: act })], pen.inner, { gap: 8, align: 'middle' }),
      paragraph(pen, t('check', words), { size: 13, width: pen.inner }),
      paragraph(pen, shapes, { size: 12, color: 'muted', width: pen.inner }),
    ], { gap: 10 }),
    summary: t('summary', words),
  };
}
