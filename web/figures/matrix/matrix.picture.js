// matrix.picture.js: the picture of <attention-matrix> without a browser
// (web/kit/picture/): the step's matrices (what it takes and, outlined,
// what it makes) and the 12 x 12 picture with the chosen pixel's attention.
import { el } from '../../kit/picture/svg.js';
import { block, column, flow, label, outlined, paragraph, row, setting, swatch } from '../../kit/picture/layout.js';
import { matrix } from '../../kit/picture/matrix.js';
import { num, pct } from '../../kit/format.js';
import { maxAbs } from '../../kit/draw/scale.js';
import { steps, smallX, pictureAttention, parseExample, PIXELS, STEPS, SIDE } from './matrix.model.js';

export { parseExample as readExample };

// the equations of the six steps, as text (the figure typesets them)
const EQUATIONS = ['X \u2208 \u211d^(N\u00d7d)', 'Q = XW\u1d60, K = XW\u1d37, V = XW\u2c7d', 'S = QK\u1d40', 'S / \u221ad\u2096', 'P = softmax_row(QK\u1d40 / \u221ad\u2096)', 'Y = PV'];
const OPERANDS = [[], ['X'], ['Q', 'K'], ['S'], ['scaled'], ['P', 'V']];
const RESULTS = [['X'], ['Q', 'K', 'V'], ['S'], ['scaled'], ['P'], ['Y']];
const NAMES = { X: 'X', Q: 'Q', K: 'K', V: 'V', S: 'QK\u1d40', scaled: 'QK\u1d40/\u221ad', P: 'P', Y: 'Y' };
const SCORES = ['S', 'scaled', 'P'];
const rgbCss = (c) => `rgb(${c.map((v) => Math.round(Math.max(0, Math.min(1, v)) * 255)).join(',')})`;
const CELL = 18;

export default function picture(pen) {
  const { t } = pen;
  const mine = pen.example;
  const names = mine?.names ?? PIXELS.names;
  const X = mine?.X ?? smallX();
  const k = pen.state.step - 1;
  const st = steps(pen.attn, X);
  const group = (keys) => maxAbs(keys.flatMap((key) => Array.from(st[key].data)));
  const features = group(['X', 'Q', 'K', 'V', 'Y']);
  const scores = group(['S', 'scaled']);
  const max = { P: 1, S: scores, scaled: scores };
  const cell = names.length > 5 ? 30 : 36;
  const cols = mine ? Array.from({ length: X.cols }, (_, j) => String(j + 1)) : ['r', 'g', 'b'];
  const view = (key) => matrix(pen, st[key], { name: NAMES[key], cell, values: true, shares: key === 'P', max: max[key] ?? features,
    rowLabels: names, colLabels: SCORES.includes(key) ? names : cols });
  const chain = [...OPERANDS[k].map(view), ...RESULTS[k].map((key) => outlined(pen, view(key)))];

  const { rgb, weights, output } = pictureAttention(pen.attn);
  const p = pen.state.pixel;
  const N = SIDE * SIDE;
  const w = weights.data.subarray(p * N, (p + 1) * N);
  const img = block(SIDE * CELL, SIDE * CELL, (x, y) => rgb.map((c, i) => el('rect', { x: x + (i % SIDE) * CELL, y: y + Math.floor(i / SIDE) * CELL, width: CELL, height: CELL, fill: rgbCss(c) })).join('')
    + el('rect', { x: x + (p % SIDE) * CELL, y: y + Math.floor(p / SIDE) * CELL, width: CELL, height: CELL, fill: 'none', stroke: pen.c('fg'), 'stroke-width': 3 }));
  const grid = Array.from({ length: SIDE }, (_, r) => Array.from(w.subarray(r * SIDE, (r + 1) * SIDE)));
  const out = Array.from(output.data.subarray(p * 3, p * 3 + 3)).map((v) => (v + 1) / 2);
  const top = Math.max(...w);
  const infoW = Math.min(pen.inner, 260);
  const info = column([
    row([paragraph(pen, t('pixelAt', { x: (p % SIDE) + 1, y: Math.floor(p / SIDE) + 1 }), { size: 13 }), swatch(pen, rgbCss(rgb[p]), 26)], { gap: 6 }),
    row([paragraph(pen, t('pixelOutput'), { size: 13, width: infoW - 34 }), swatch(pen, rgbCss(out), 26)], { gap: 6 }),
    paragraph(pen, t('pictureNote', { top: pct(top) }), { size: 12, color: 'muted', width: infoW }),
  ], { gap: 6 });
  const same = w.filter((v) => v > 0.5 / N).length;
  return {
    body: column([
      setting(pen, t('step'), `${k + 1}/${STEPS.length}: ${t(STEPS[k])}`),
      label(pen, EQUATIONS[k], { size: 16, attrs: { 'font-style': 'italic' } }),
      flow(chain, pen.inner, { gap: 18, align: 'top' }),
      paragraph(pen, t('scaleNote', { features: num(features), scores: num(scores) }), { size: 12, color: 'muted', width: pen.inner }),
      label(pen, t('pictureTitle'), { size: 13, bold: true }),
      flow([img, matrix(pen, grid, { name: t('heatName'), cell: CELL, marks: new Set([`${Math.floor(p / SIDE)},${p % SIDE}`]) }), info], pen.inner, { gap: 16 }),
    ], { gap: 10 }),
    summary: t('summary', { step: pen.state.step, name: t(STEPS[k]), pixel: p, same, n: N, top: pct(top) }),
  };
}
