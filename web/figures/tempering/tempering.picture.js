// tempering.picture.js: the picture of <attention-tempering> without a
// browser (web/kit/picture/): the histograms of the dot products with and
// without the division by √d_k, one softmax of each, and the gradient's
// norm against d_k.
import { el, text } from '../../kit/picture/svg.js';
import { block, column, flow, label, paragraph, row, setting } from '../../kit/picture/layout.js';
import { legend, loglog } from '../../kit/picture/plot.js';
import { num, pct } from '../../kit/format.js';
import { temperingModel, BINS, KEYS, QUERIES } from './tempering.model.js';
import { DKS, MAX_DK, temperingGradientCurve, temperingGradientModel } from './tempering-gradient.model.js';

const H = 150;
const PAD = 24;
const variance = (v) => num(v, 2);
const tauText = (v) => (v < 0.1 ? v.toFixed(2) : v < 10 ? v.toFixed(1) : String(Math.round(v)));
const barsPath = (x0, y0, heights, step, base) => heights.map((hgt, k) => `M${(x0 + k * step + 0.5).toFixed(2)} ${(y0 + base - hgt).toFixed(2)}h${(step - 1).toFixed(2)}v${hgt.toFixed(2)}h${(1 - step).toFixed(2)}z`).join('');

export default function picture(pen) {
  const { t } = pen;
  const dk = Math.round(pen.state.dk);
  const tau = pen.state.tau;
  const m = temperingModel(pen.attn, { dk, tau });
  const [raw, scaled] = [variance(m.raw.variance), variance(m.scaled.variance)];
  const width = Math.max(240, Math.min(520, Math.floor(pen.inner)));
  const colour = { raw: 'negative', scaled: 'positive' };
  const hist = block(width, H + PAD, (x, y) => {
    const out = ['raw', 'scaled'].map((cls) => {
      const counts = m[cls].histogram;
      const top = Math.max(...counts) || 1;
      return el('path', { d: barsPath(x, y, counts.map((c) => (H - 6) * (c / top)), width / BINS, H), fill: pen.c(colour[cls]), 'fill-opacity': cls === 'raw' ? 0.55 : 0.8 });
    });
    out.push(el('line', { x1: x, x2: x + width, y1: y + H + 0.5, y2: y + H + 0.5, stroke: pen.c('border') }));
    [-1, -0.5, 0, 0.5, 1].forEach((f) => out.push(text({ x: x + width / 2 + ((f * width) / 2) * (1 - 1 / BINS), y: y + H + 16, 'font-size': 11, 'text-anchor': 'middle', fill: pen.c('muted') }, num(f * m.range, m.range < 10 ? 1 : 0))));
    return out.join('');
  });
  const key = (cls, words) => row([block(14, 10, (x, y) => el('rect', { x, y, width: 14, height: 10, rx: 2, fill: pen.c(colour[cls]), opacity: cls === 'raw' ? 0.6 : 1 })), label(pen, words, { size: 13 })], { gap: 6 });
  const softmax = (cls, title, st) => column([
    label(pen, title, { size: 13, bold: true }),
    block(200, 60, (x, y) => el('path', { d: barsPath(x, y, Array.from(st.example, (w) => Math.max(0.5, 56 * w)), 200 / KEYS, 58), fill: pen.c(colour[cls]) })),
    paragraph(pen, t('softmaxStats', { entropy: num(st.entropy), max: num(m.maxEntropy), top: pct(st.top), queries: QUERIES }), { size: 12, width: Math.min(pen.inner, 300) }),
  ], { gap: 4 });
  // the gradient panel (tempering-gradient.view.js)
  const curve = temperingGradientCurve(pen.attn);
  const here = temperingGradientModel(pen.attn, { dk });
  const norms = curve.flatMap((c) => [c.unscaled.norm, c.scaled.norm]).concat(here.unscaled.norm, here.scaled.norm);
  const [lo, hi] = [Math.log10(Math.min(...norms)), Math.log10(Math.max(...norms))];
  const plot = loglog(pen, {
    title: t('gradientAxisY'), width: Math.max(246, Math.min(520, Math.floor(pen.inner))), height: 184,
    series: [{ colour: 'negative', points: curve.map((c) => [c.dk, c.unscaled.norm]) }, { colour: 'positive', points: curve.map((c) => [c.dk, c.scaled.norm]) }],
    xTicks: DKS, xLabel: t('gradientAxisX'), yFormat: (v) => (v === 1 ? '1' : `1e${Math.round(Math.log10(v))}`),
    yRange: [Math.floor(lo), Math.max(Math.ceil(hi), Math.floor(lo) + 1)], highlight: [dk, here.scaled.norm],
  });
  const gradientText = t('gradientNow', { dk, unscaled: num(here.unscaled.norm, 3), scaled: num(here.scaled.norm, 3), first: num(curve[0].scaled.norm, 3) });
  const queries = t('gradientQueries', { dk, unscaled: num(here.unscaled.queries, 2), scaled: num(here.scaled.queries, 2) });
  return {
    body: column([
      paragraph(pen, `${pen.pt('setting', { name: 'd\u2096', value: dk })} \u00b7 ${pen.pt('setting', { name: t('tau'), value: tauText(tau) })}`, { size: 13, width: pen.inner }),
      flow([key('raw', t('keyRaw', { variance: raw })), key('scaled', t('keyScaled', { dk, variance: scaled }))], pen.inner, { gap: 16, rowGap: 4 }),
      hist,
      flow([softmax('raw', t('softmaxRaw'), m.unscaledSoftmax), softmax('scaled', t('softmaxScaled', { tau: tauText(tau) }), m.scaledSoftmax)], pen.inner, { gap: 16 }),
      label(pen, t('gradientTitle'), { size: 13, bold: true }),
      legend(pen, [{ colour: 'negative', name: t('softmaxRaw') }, { colour: 'positive', name: t('gradientScaled') }], pen.inner),
      plot,
      paragraph(pen, `${gradientText} ${queries}`, { size: 12, width: pen.inner }),
    ], { gap: 10 }),
    summary: t('summary', { dk, raw, scaled, unscaledTop: pct(m.unscaledSoftmax.top), scaledTop: pct(m.scaledSoftmax.top), gradient: `${gradientText} ${queries}` }),
  };
}
