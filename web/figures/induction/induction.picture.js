// induction.picture.js: the picture of <attention-induction> without a
// browser (web/kit/picture/): the figure before Start, with its model
// untrained (training takes seconds, in the reader's browser): the status,
// the loss plot's axes with the held-out losses at step 0, and every
// head's attention on the held-out sample with its two scores, as the
// worker measures them (induction.worker.js).
import { el, text } from '../../kit/picture/svg.js';
import { bar, block, column, flow, label, paragraph, row } from '../../kit/picture/layout.js';
import { pixels } from '../../kit/picture/matrix.js';
import { legend, lossPlot } from '../../kit/picture/plot.js';
import { createRun, ALPHABET, DEFAULTS } from './induction.model.js';

const CHANCE = Math.log(DEFAULTS.vocab);
const fmt = (x) => (Number.isFinite(x) ? x.toFixed(2) : '\u2013');
// the held-out sequence the figure draws: the first one with at least three passes (induction.worker.js)
const sampleOf = (evalSet) => {
  const b = Math.max(0, evalSet.periods.findIndex((p) => p <= 11));
  return { tokens: evalSet.sequences[b], period: evalSet.periods[b] };
};

// the sample's passes, in a monospace font, every other one shaded
function passes(pen, tokens, period) {
  const parts = [];
  for (let k = 0; k < tokens.length; k += period) parts.push(Array.from(tokens.slice(k, k + period), (id) => ALPHABET[id]).join(''));
  const charW = 9;
  return block(parts.reduce((s, p) => s + p.length * charW + 4, 0), 20, (x, y) => {
    let at = x;
    return parts.map((p, k) => {
      const w = p.length * charW + 4;
      const out = (k % 2 === 0 ? el('rect', { x: at, y, width: w, height: 20, rx: 3, fill: pen.c('panel') }) : '')
        + text({ x: at + 2, y: y + 15, 'font-size': 13, 'font-family': pen.pt('mono'), 'letter-spacing': 1, fill: pen.c('fg') }, p);
      at += w;
      return out;
    }).join('');
  });
}

export default function picture(pen) {
  const { t } = pen;
  const layers = Number(pen.state.layers);
  const steps = pen.state.steps;
  const run = createRun(pen.attn, { layers, steps, seed: pen.state.seed });
  try {
    const { tokens, period } = sampleOf(run.evalSet);
    const attention = run.model.attention(tokens);
    const scores = run.scores();
    const first = run.curve[0];
    const plotW = Math.max(280, Math.min(560, Math.round(pen.inner)));
    const yMax = Math.ceil(Math.max(4.5, first.first, first.repeats));
    const sample = t('sample', { period });
    const heads = attention.map((hs, l) => column([
      label(pen, t('layer', { l: l + 1 }), { size: 13, bold: true }),
      flow(hs.map((W, hd) => column([
        label(pen, t('head', { l: l + 1, h: hd + 1 }), { size: 12, bold: true }),
        pixels(pen, W, { size: 140, max: 1 }),
        ...[['previousToken', scores[l][hd].previousToken], ['prefixMatching', scores[l][hd].prefixMatching]].map(([key, v]) => column([
          label(pen, t(key), { size: 11 }),
          row([bar(pen, v, { width: 110, height: 7, color: 'accent', track: true }), label(pen, fmt(v), { size: 11 })], { gap: 6 }),
        ], { gap: 1 })),
      ], { gap: 3 })), pen.inner, { gap: 14 }),
    ], { gap: 4 }));
    return {
      body: column([
        paragraph(pen, t('status', { step: 0, steps, time: '0.0 s', rate: '', state: t('idle') }), { size: 13, width: pen.inner }),
        legend(pen, [{ colour: 'key', name: t('legendFirst') }, { colour: 'head-1', name: t('legendRepeats') }], pen.inner),
        lossPlot(pen, {
          width: plotW, steps, yMax, stepAxis: t('stepAxis'), lossAxis: t('lossAxis'),
          references: [{ value: CHANCE, below: true, label: t('uniform', { vocab: DEFAULTS.vocab, value: CHANCE.toFixed(2) }) }],
          series: [{ colour: 'key', points: [[0, first.first]] }, { colour: 'head-1', points: [[0, first.repeats]] }],
        }),
        paragraph(pen, t('summaryLosses', { first: fmt(first.first), repeats: fmt(first.repeats) }).trim(), { size: 13, width: pen.inner }),
        flow([label(pen, sample, { size: 13 }), passes(pen, tokens, period)], pen.inner, { gap: 4, align: 'middle' }),
        ...heads,
        paragraph(pen, t('ablationLater'), { size: 12, color: 'muted', width: pen.inner }),
      ], { gap: 10 }),
      notes: [pen.pt('untrained')],
      summary: t('summary', {
        layers: t('layerCount', { n: layers }), step: 0, steps, state: t('summaryIdle'), losses: '', milestone: '', scores: '',
      }).replace(/\s+/g, ' ').trim(),
    };
  } finally {
    run.dispose();
  }
}
