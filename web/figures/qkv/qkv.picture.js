// qkv.picture.js: the picture of <attention-qkv> without a browser
// (web/kit/picture/): the three projections, the weights and each user's
// ideal movie as coloured squares with their values.
import { column, flow, label, op, paragraph, row, setting } from '../../kit/picture/layout.js';
import { matrix } from '../../kit/picture/matrix.js';
import { num } from '../../kit/format.js';
import { maxAbs } from '../../kit/draw/scale.js';
import { qkvModel, favourites, parseWeight, FEATURES, USERS, MOVIES, MATRICES, LIMIT } from './qkv.model.js';

const ROLE = { Wq: 'query', Wk: 'key', Wv: 'value' };
const ROLE_COLOUR = { query: 'query', key: 'key', value: 'value' };

export default function picture(pen) {
  const { t } = pen;
  const W = Object.fromEntries(MATRICES.map((k) => [k, parseWeight(pen.state[k.toLowerCase()])]));
  const m = qkvModel(pen.attn, W);
  const features = FEATURES.map((f) => t(f));
  const max = maxAbs(['Xu', 'Xm', 'Q', 'K', 'V', 'output'].flatMap((k) => Array.from(m[k].data)));
  const [r, i, j] = pen.state.cell.split('.');
  const sel = { k: `W${r}`, i: Number(i) - 1, j: Number(j) - 1 };
  const v = (M, name, opts) => matrix(pen, M, { name, cell: 30, values: true, ...opts });
  const proj = (x, name, w, out, role) => flow([
    label(pen, t(role), { size: 11, bold: true, color: ROLE_COLOUR[role] }),
    v(x, name, { rowLabels: x === m.Xu ? USERS.names : MOVIES.names, colLabels: features, max }), op(pen, '\u00d7'),
    v(W[w], `W${w[1].toUpperCase()}`, { rowLabels: features, max: LIMIT, marks: w === sel.k ? new Set([`${sel.i},${sel.j}`]) : null }), op(pen, '='),
    v(m[out], out, { max }),
  ], pen.inner, { gap: 6, align: 'middle' });
  return {
    body: column([
      flow([proj(m.Xu, t('users'), 'Wq', 'Q', 'query'), proj(m.Xm, t('movies'), 'Wk', 'K', 'key'), proj(m.Xm, t('movies'), 'Wv', 'V', 'value')], pen.inner, { gap: 22, rowGap: 14 }),
      setting(pen, t('selectedWeight'), `${num(W[sel.k].data[sel.i * 3 + sel.j])}, ${t('editing', { matrix: `W${sel.k[1].toUpperCase()}`, feature: t(FEATURES[sel.i]), column: sel.j + 1, role: t(ROLE[sel.k]) })}`),
      flow([
        row([label(pen, 'softmax(QK\u1d40/\u221a3) =', { size: 14 }), v(m.weights, t('weights'), { rowLabels: USERS.names, colLabels: MOVIES.names, shares: true, max: 1 })], { gap: 6 }),
        row([label(pen, '\u00d7 V =', { size: 14 }), v(m.output, t('idealMovie'), { rowLabels: USERS.names, colLabels: features, max })], { gap: 6 }),
      ], pen.inner, { gap: 22 }),
      paragraph(pen, t('scale', { max: num(max), limit: LIMIT }), { size: 12, color: 'muted', width: pen.inner }),
    ], { gap: 12 }),
    summary: t('summary', { parts: favourites(m.weights).map(({ key, ...args }) => t(key, args)) }),
  };
}
