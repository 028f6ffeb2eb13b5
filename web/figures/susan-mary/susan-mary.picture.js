// susan-mary.picture.js: the picture of <attention-susan-mary> without a
// browser (web/kit/picture/): the sentence, the weights and the outputs,
// and y_gave in both word orders side by side with the verdict.
import { el, text } from '../../kit/picture/svg.js';
import { block, column, flow, panel, paragraph, setting } from '../../kit/picture/layout.js';
import { matrix } from '../../kit/picture/matrix.js';
import { textWidth } from '../../kit/picture/text.js';
import { gap, num, sameness } from '../../kit/format.js';
import { maxAbs } from '../../kit/draw/scale.js';
import { susanMaryModel, ORDERS, FEATURES, GAVE } from './susan-mary.model.js';

const OTHER = { 'susan-mary': 'mary-susan', 'mary-susan': 'susan-mary' };
const sentence = (order) => ORDERS[order].join(' ');

// the words as the figure's chips: names outlined, "gave" filled
function chips(pen, words) {
  const w = Math.max(...words.map((x) => textWidth(x, 14, true))) + 20;
  return block(words.length * (w + 8), 32, (x, y) => words.map((word, i) => {
    const [cx, fill, stroke, ink] = [x + i * (w + 8), word === 'gave' ? pen.c('accent') : pen.c('panel'),
      /Susan|Mary/.test(word) ? pen.c('accent') : pen.c('border'), word === 'gave' ? pen.c('bg') : pen.c('fg')];
    return el('rect', { x: cx + 0.5, y: y + 0.5, width: w, height: 30, rx: 8, fill, stroke })
      + text({ x: cx + w / 2, y: y + 20, 'font-size': 14, 'font-weight': 600, 'text-anchor': 'middle', fill: ink }, word);
  }).join(''));
}

export default function picture(pen) {
  const { t } = pen;
  const { order, positions } = pen.state;
  const m = susanMaryModel(pen.attn, { positions });
  const now = m.orders[order];
  const max = maxAbs([...now.output.data, ...m.gave[OTHER[order]]]);
  const key = sameness(m.gaveDiff);
  const same = t(key);
  const why = positions ? t('withPositions') : t('moved', { difference: gap(m.swapDiff) });
  const compare = panel(pen, column([
    flow([order, OTHER[order]].map((o) => column([
      paragraph(pen, t('inSentence', { sentence: sentence(o) }), { size: 12, color: 'muted' }),
      matrix(pen, [m.gave[o]], { name: 'y_gave', cell: 34, max }),
    ], { gap: 2 })), pen.inner - 20, { gap: 18 }),
    paragraph(pen, t('verdict', { same, difference: gap(m.gaveDiff), why }), { size: 13, width: pen.inner - 20 }),
  ], { gap: 8 }), { width: pen.inner });
  return {
    body: column([
      chips(pen, now.words),
      setting(pen, t('positions'), pen.pt(positions ? 'on' : 'off')),
      flow([
        matrix(pen, now.weights, { name: t('weights'), cell: 26, values: true, shares: true, max: 1, rowLabels: now.words, colLabels: now.words }),
        matrix(pen, now.output, { name: 'Y', cell: 34, max, rowLabels: now.words, colLabels: FEATURES.map((f) => t(f)), marks: new Set(FEATURES.map((_, c) => `${GAVE},${c}`)) }),
      ], pen.inner, { gap: 22 }),
      compare,
      paragraph(pen, t('scale', { max: num(max) }), { size: 12, color: 'muted', width: pen.inner }),
    ], { gap: 12 }),
    summary: t(positions ? 'summaryWith' : 'summaryWithout', { sentence: sentence(order), same }),
  };
}
