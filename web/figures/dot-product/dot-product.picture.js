// dot-product.picture.js: the picture of <attention-dot-product> without a
// browser (web/kit/picture/): the user's tastes, the movie's content, their
// products and the score as coloured squares, and each product read out.
import { column, flow, label, paragraph } from '../../kit/picture/layout.js';
import { matrix } from '../../kit/picture/matrix.js';
import { num } from '../../kit/format.js';
import { dotProductModel, reading, FEATURES, DEFAULT_USER, DEFAULT_MOVIE } from './dot-product.model.js';
import { parseTriple } from './dot-product.props.js';

export default function picture(pen) {
  const { t } = pen;
  const [u, m] = [parseTriple(pen.state.user, DEFAULT_USER), parseTriple(pen.state.movie, DEFAULT_MOVIE)];
  const { products, score } = dotProductModel(pen.attn, u, m);
  const features = FEATURES.map((f) => t(f));
  const op = (s) => label(pen, s, { size: 18, color: 'muted' });
  return {
    body: column([
      flow([
        matrix(pen, [u], { name: 'u', cell: 34, values: true, colLabels: features, max: 1 }), op('\u00d7'),
        matrix(pen, [m], { name: 'm', cell: 34, values: true, colLabels: features, max: 1 }), op('='),
        matrix(pen, [products], { name: 'u\u2299m', cell: 34, values: true, colLabels: features, max: 1 }), op('\u03a3 \u2192'),
        matrix(pen, [[score]], { name: t('score'), cell: 40, values: true, max: 3 }),
      ], pen.inner, { gap: 8, align: 'middle' }),
      column(features.map((feature, i) => paragraph(pen, `\u2022 ${t('term', { feature, u: num(u[i]), m: num(m[i]), p: num(products[i]), reading: t(reading(u[i], m[i])) })}`, { size: 13, width: pen.inner })), { gap: 2 }),
      paragraph(pen, `${t('user')} (${t('userEnds')})`, { size: 12, color: 'muted', width: pen.inner }),
      paragraph(pen, `${t('movie')} (${t('movieEnds')})`, { size: 12, color: 'muted', width: pen.inner }),
    ], { gap: 10 }),
    summary: t('summary', { score: num(score), features, products: products.map((p) => num(p)) }),
  };
}
