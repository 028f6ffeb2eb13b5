// efficient.picture.js: the picture of <attention-efficient> without a
// browser (web/kit/picture/): full attention's weights beside the window's
// and the Performer's, the Performer's error against its features, and the
// time plot's axes (times are measured in the reader's browser, never in a
// picture).
import { column, flow, label, paragraph } from '../../kit/picture/layout.js';
import { matrix } from '../../kit/picture/matrix.js';
import { legend, loglog } from '../../kit/picture/plot.js';
import { millis, pct } from '../../kit/format.js';
import { exactWeights, featureErrors, parseGlobal, windowPattern, FEATURE_COUNTS, FIRST_N, MECHANISMS, SEEDS, SWEEP } from './efficient.model.js';

const COLOURS = { full: 'positive', window: 'head-1', linear: 'head-3' };
const QUICK = 4096; // the sweep the figure starts by itself (efficient.js)

export default function picture(pen) {
  const { t } = pen;
  const { window, features: m } = pen.state;
  const global = parseGlobal(pen.state.global);
  const exact = exactWeights(pen.attn);
  const max = Math.max(...exact.data);
  const w = windowPattern(pen.attn, { window, global });
  const errors = featureErrors(pen.attn);
  const at = errors.find((r) => r.m === m);
  const side = Math.min(320, pen.inner >= 600 ? Math.floor((pen.inner - 36) / 3) : pen.inner); // three in a row where they fit
  const panelOf = (title, M, name, caption) => column([
    label(pen, title, { size: 13, bold: true }),
    matrix(pen, M, { name, cell: (side - 4) / M.cols, max }),
    paragraph(pen, caption, { size: 12, color: 'muted', width: side }),
  ], { gap: 4 });
  const name = (mech) => t(mech, { w: SWEEP.window, m: SWEEP.features });
  const ticks = [];
  for (let n = FIRST_N; n <= QUICK; n *= 4) ticks.push(n);
  const plotW = Math.min(300, pen.inner);
  return {
    body: column([
      paragraph(pen, [[t('windowW'), window], [t('featuresM'), m], [t('globalTokens'), global.length ? global.map((p) => p + 1).join(', ') : t('noGlobal')]]
        .map(([k, v]) => pen.pt('setting', { name: k, value: v })).join(' \u00b7 '), { size: 13, width: pen.inner }),
      flow([
        panelOf(t('panelFull'), exact, t('matFull'), t('captionFull')),
        panelOf(t('panelWindow'), w.windowed, t('matWindow'), t('captionWindow', { kept: pct(w.kept), global: global.length ? global.map((p) => p + 1).join(', ') : t('noGlobal'), gap: w.windowGap === 0 ? '0' : w.windowGap.toExponential(0) })),
        panelOf(t('panelPerformer'), at.drawn, t('matPerformer'), t('captionPerformer', { m, seeds: SEEDS, misplaced: pct(at.error) })),
      ], pen.inner, { gap: 18 }),
      legend(pen, [...MECHANISMS.map((mech) => ({ colour: COLOURS[mech], name: name(mech) })), { colour: 'muted', name: t('guide'), dashed: true }], pen.inner),
      flow([
        loglog(pen, { title: t('timePlot'), xTicks: ticks, xLabel: t('nAxis'), yFormat: millis, width: plotW, empty: pen.pt('noTimings') }),
        loglog(pen, {
          title: t('errorPlot'), series: [{ colour: 'head-3', points: errors.map((r) => [r.m, r.error]) }],
          xTicks: FEATURE_COUNTS.filter((k, i) => i % 2 === 0), xLabel: t('mAxis'), yFormat: pct, base: 2, highlight: [at.m, at.error], width: plotW,
        }),
      ], pen.inner, { gap: 12 }),
    ], { gap: 10 }),
    notes: [pen.pt('notMeasured')],
    summary: t('summary', { w: window, kept: pct(w.kept), m, misplaced: pct(at.error) }),
  };
}
