// multi-head-it.picture.js: the picture of <attention-multi-head-it> without
// a browser (web/kit/picture/): the sentence, where each head sends "it",
// and the read-out's verdict on what "it" refers to.
import { el, esc, text } from '../../kit/picture/svg.js';
import { bar, block, column, flow, grid, label, panel, paragraph, right, row, setting } from '../../kit/picture/layout.js';
import { textWidth } from '../../kit/picture/text.js';
import { num, pcts } from '../../kit/format.js';
import { itModel, topTwo, truth, verdict, IT, ADJ } from './multi-head-it.model.js';

const ROW = 22;

// the sentence: "it" on the accent colour, the adjective underlined; it wraps between words
function sentence(pen, words) {
  const size = 17;
  const word = (w, i) => {
    const width = textWidth(w, size, i === ADJ) + (i === IT ? 10 : 0) + (i === words.length - 1 ? textWidth('.', size) : 0);
    return block(width, 30, (x, y) => [
      i === IT ? el('rect', { x, y: y + 3, width, height: 24, rx: 4, fill: pen.c('accent') }) : '',
      i === ADJ ? el('rect', { x, y: y + 25, width: width - textWidth('.', size), height: 3, fill: pen.c('key') }) : '',
      text({ x: x + (i === IT ? 5 : 0), y: y + 21, 'font-size': size, 'font-weight': i === ADJ ? 600 : null, fill: pen.c(i === IT ? 'bg' : 'fg') }, i === words.length - 1 ? `${w}.` : w),
    ].join(''));
  };
  return flow(words.map(word), pen.inner, { gap: textWidth(' ', size), rowGap: 2 });
}

// one head: lines from "it" to every word, as thick as its weight, and the weights
function headPanel(pen, words, w, hd, role, off) {
  const n = words.length;
  const y0 = 10;
  const yIt = y0 + ((n - 1) * ROW) / 2;
  const colour = pen.c(`head-${hd + 1}`);
  const shown = pcts(w);
  const svg = block(240, y0 * 2 + (n - 1) * ROW, (x, y) => [
    ...words.map((word, i) => el('line', { x1: x + 34, y1: y + yIt, x2: x + 104, y2: y + y0 + i * ROW, stroke: colour, 'stroke-linecap': 'round', 'stroke-width': 0.4 + 10 * w[i], 'stroke-opacity': 0.2 + 0.8 * w[i] })),
    ...words.map((word, i) => text({ x: x + 110, y: y + y0 + i * ROW + 4, 'font-size': 12, fill: pen.c('fg'), 'font-weight': i === ADJ ? 700 : null }, word)),
    ...words.map((word, i) => text({ x: x + 236, y: y + y0 + i * ROW + 4, 'font-size': 12, 'text-anchor': 'end', fill: pen.c('muted') }, shown[i])),
    text({ x: x + 4, y: y + yIt + 4, 'font-size': 12, 'font-weight': 700, fill: pen.c('fg') }, 'it'),
  ].join(''));
  const title = block(240, 18, (x, y) => el('text', { x, y: y + 13, 'font-size': 13 }, el('tspan', { fill: colour, 'font-weight': 600 }, esc(pen.t('headTitle', { n: hd + 1 }))), el('tspan', { fill: pen.c('muted'), 'font-size': 12 }, esc(`  ${role}`))));
  const p = panel(pen, column([title, svg], { gap: 4 }), { pad: 8 });
  return off ? { ...p, draw: (x, y) => el('g', { opacity: 0.45 }, p.draw(x, y)) } : p;
}

export default function picture(pen) {
  const { t } = pen;
  const heads = Number(pen.state.heads);
  const offs = [1, 2].map((k) => String(pen.state.off).split(',').includes(String(k)));
  const m = itModel(pen.attn, { heads, adjective: pen.state.adjective, tip: pen.state.tip, off: offs });
  const v = verdict(m.readout);
  const right_ = v.referent === truth(pen.state.adjective);
  const tip = pen.state.tip;
  const panels = m.itWeights.map((w, hd) => headPanel(pen, m.words, w, hd, t(offs[hd] ? 'switchedOff' : heads === 1 ? 'roleOnly' : hd === 0 ? 'roleNouns' : 'roleAdjectives'), offs[hd]));
  const inner = Math.min(pen.inner, 480);
  const readout = panel(pen, column([
    v.referent ? block(0, 0) : null,
    v.referent
      ? row([label(pen, t('verdict', { referent: v.referent }), { size: 18, bold: true }), label(pen, t(right_ ? 'right' : 'wrong'), { size: 18, bold: true, color: right_ ? 'head-1' : 'negative' })], { gap: 8 })
      : label(pen, t('verdictUndecided'), { size: 18, bold: true }),
    paragraph(pen, t('margin', { points: v.points, noun: num(m.gathered[0]), animacy: num(m.gathered[1]) }), { size: 13, width: inner - 20 }),
    grid(['animal', 'road'].map((k) => [label(pen, k, { size: 13 }), bar(pen, m.readout[k], { width: inner - 160, height: 14 }), right(label(pen, `${v[k]}%`, { size: 13 }))]), { gap: 8 }),
  ], { gap: 6 }), { width: inner });
  const perHead = m.itWeights.map((w, hd) => {
    const [first, second] = topTwo(m.words, w);
    return t('perHead', { n: hd + 1, first, second, off: offs[hd] ? t('perHeadOff') : '' });
  });
  return {
    body: column([
      sentence(pen, m.words),
      setting(pen, t('adjectiveLabel'), pen.state.adjective),
      setting(pen, t('heads'), t(heads === 1 ? 'oneHead' : 'twoHeads')),
      setting(pen, t('tip'), Math.abs(tip) < 0.05 ? t('tipEven') : t('tipToward', { word: tip > 0 ? 'animal' : 'road', amount: num(Math.abs(tip), 1) })),
      flow(panels, pen.inner, { gap: 12 }),
      readout,
    ], { gap: 10 }),
    summary: t('summary', { heads, adjective: pen.state.adjective, perHead, referent: v.referent ?? t('undecided'), points: v.points }),
  };
}
