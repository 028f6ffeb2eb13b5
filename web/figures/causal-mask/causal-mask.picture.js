// causal-mask.picture.js: the picture of <attention-causal-mask> without a
// browser (web/kit/picture/): the tokens produced so far, the mask, the
// weights it leaves and the outputs, and every row's sum.
import { el, text } from '../../kit/picture/svg.js';
import { block, column, flow, paragraph, setting } from '../../kit/picture/layout.js';
import { matrix } from '../../kit/picture/matrix.js';
import { textWidth } from '../../kit/picture/text.js';
import { leaders, num, pcts } from '../../kit/format.js';
import { maxAbs } from '../../kit/draw/scale.js';
import { causalModel, presetCells, parseCells, parseExample, TOKENS, WINDOW } from './causal-mask.model.js';

export { parseExample as readExample };

// the tokens as the figure's chips: those not produced yet faint and dashed, the newest outlined
function tokenRow(pen, tokens, t) {
  const widths = tokens.map((tok) => textWidth(tok, 13) + 16);
  return block(widths.reduce((a, b) => a + b, 0) + 6 * (tokens.length - 1), 26, (x, y) => {
    let at = x;
    return tokens.map((tok, i) => {
      const w = widths[i];
      const out = el('g', { opacity: i >= t ? 0.35 : null }, el('rect', {
        x: at + 0.5, y: y + 0.5, width: w - 1, height: 25, rx: 6, fill: pen.c('panel'),
        stroke: i === t - 1 ? pen.c('accent') : pen.c('border'), 'stroke-width': i === t - 1 ? 2 : 1, 'stroke-dasharray': i >= t ? '3 2' : null,
      }), text({ x: at + 8, y: y + 17, 'font-size': 13, 'font-family': pen.pt('mono'), fill: pen.c('fg'), 'xml:space': 'preserve' }, tok));
      at += w + 6;
      return out;
    }).join('');
  });
}

export default function picture(pen) {
  const { t } = pen;
  const tokens = pen.example ?? TOKENS;
  const step = Math.min(pen.state.step, tokens.length);
  const cells = pen.state.preset === 'custom' ? parseCells(pen.state.cells, tokens.length) : presetCells(pen.state.preset, tokens);
  const m = causalModel(pen.attn, { tokens, cells, step });
  const n = m.tokens.length;
  const presetLabel = t(pen.state.preset, { n: WINDOW });
  const neg = { rows: n, cols: n, data: m.blocked.data.map((b) => -b) };
  const sums = m.rowSums.map((s, i) => (m.emptyRows.includes(i) ? t('noKeyLeft') : num(s, 3)));
  const empty = m.emptyRows.map((i) => i + 1);
  const last = n - 1;
  const w = Array.from(m.weights.data.subarray(last * n, n * n));
  const shown = pcts(w);
  const top = leaders(w, shown);
  const looks = m.emptyRows.includes(last) ? t('seesNoKey')
    : top.length > 1 ? t('attendsMostTie', { tokens: top.map((j) => m.tokens[j]), share: shown[top[0]] })
      : t('attendsMost', { token: m.tokens[top[0]], share: shown[top[0]] });
  return {
    body: column([
      flow([tokenRow(pen, tokens, n)], pen.inner),
      setting(pen, t('mask'), presetLabel),
      setting(pen, t('generated'), `${step}/${tokens.length}: ${t('stepLabel', { n: step, token: tokens[step - 1] })}`),
      flow([
        matrix(pen, neg, { name: t('maskName'), cell: 24, max: 1, rowLabels: m.tokens, colLabels: m.tokens }),
        matrix(pen, m.weights, { name: t('weights'), cell: 30, values: true, shares: true, max: 1, rowLabels: m.tokens, colLabels: m.tokens }),
        matrix(pen, m.output, { name: 'Y', cell: 17, max: maxAbs(m.output.data), rowLabels: m.tokens }),
      ], pen.inner, { gap: 16, align: 'bottom' }),
      paragraph(pen, `${t('rowSums', { sums: sums.join(', ') })}${empty.length ? t('emptyRows', { rows: empty }) : ''}`, { size: 12, color: 'muted', width: pen.inner }),
    ], { gap: 10 }),
    summary: t('summary', { preset: presetLabel, n, token: m.tokens[last], looks }),
  };
}
