// cross.picture.js: the picture of <attention-cross> without a browser
// (web/kit/picture/): the alignment lines from each output word to the
// source words, the chosen word's read-out and the weights.
import { el, text } from '../../kit/picture/svg.js';
import { block, column, fit, paragraph, setting } from '../../kit/picture/layout.js';
import { matrix } from '../../kit/picture/matrix.js';
import { leaders, pcts } from '../../kit/format.js';
import { crossModel, crossSetup, parseExample, PAIRS } from './cross.model.js';

export { parseExample as readExample };

// the figure's drawing of the lines (cross.js)
const W = 640;
const [Y_TOP, Y_BOTTOM] = [20, 130];
const xOf = (n, i) => 60 + ((W - 80) * (i + 0.5)) / n;

export default function picture(pen) {
  const { t } = pen;
  const mine = pen.example;
  const m = crossModel(pen.attn, { temperature: pen.state.temperature, setup: crossSetup(mine ?? PAIRS[pen.state.pair]) });
  const sel = Math.min(pen.state.word, m.target.length - 1);
  const [nt, ns] = [m.target.length, m.source.length];
  const lines = block(W, 150, (x, y) => {
    const out = [text({ x, y: y + Y_TOP + 4, 'font-size': 11, fill: pen.c('muted') }, t('source')), text({ x, y: y + Y_BOTTOM + 4, 'font-size': 11, fill: pen.c('muted') }, t('output'))];
    for (let i = 0; i < nt; i++) {
      for (let j = 0; j < ns; j++) {
        const wt = m.weights.data[i * ns + j];
        if (wt < 0.02) continue; // the figure hides these
        const on = i === sel;
        out.push(el('line', { x1: x + xOf(nt, i), y1: y + Y_BOTTOM - 14, x2: x + xOf(ns, j), y2: y + Y_TOP + 8, stroke: pen.c(on ? 'accent' : 'positive'), 'stroke-linecap': 'round',
          'stroke-width': (on ? 1 : 0.5) + 4 * wt, 'stroke-opacity': on ? 0.35 + 0.65 * wt : 0.12 + 0.5 * wt }));
      }
    }
    const word = (w, cx, cy, bold) => text({ x: x + cx, y: y + cy, 'font-size': 12, 'text-anchor': 'middle', fill: pen.c(bold ? 'accent' : 'fg'), 'font-weight': bold ? 700 : null,
      transform: `rotate(-25 ${Math.round((x + cx) * 100) / 100} ${Math.round((y + cy) * 100) / 100})` }, w);
    m.source.forEach((w, j) => out.push(word(w, xOf(ns, j), Y_TOP, false)));
    m.target.forEach((w, i) => out.push(word(w, xOf(nt, i), Y_BOTTOM + 6, i === sel)));
    return out.join('');
  });
  const w = m.focus(sel);
  const shown = pcts(w);
  const top = leaders(w, shown);
  const looks = top.length > 1 ? t('looksEqually', { sources: top.map((j) => m.source[j]), share: shown[top[0]] })
    : t('looksAt', { source: m.source[top[0]], share: shown[top[0]] });
  return {
    body: column([
      mine ? null : setting(pen, t('pair'), t(pen.state.pair)),
      setting(pen, t('temperature'), pen.state.temperature.toFixed(2)),
      fit(lines, pen.inner),
      paragraph(pen, `\u201c**${m.target[sel]}**\u201d${looks}`, { size: 13, width: pen.inner }),
      fit(matrix(pen, m.weights, { name: t('weights'), cell: 28, values: true, digits: 2, shares: true, max: 1, rowLabels: m.target, colLabels: m.source,
        marks: new Set(m.source.map((_, j) => `${sel},${j}`)) }), pen.inner),
    ], { gap: 10 }),
    summary: t('summary', { pair: t(mine ? 'pageExample' : pen.state.pair), word: m.target[sel], looks }),
  };
}
