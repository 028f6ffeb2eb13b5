// cost.picture.js: the picture of <attention-cost> without a browser
// (web/kit/picture/): what the figure measures, in the reader's browser
// only: the series, the plots' axes and the table's sizes, with no
// measurement (a picture that held timings would show some other machine's).
import { column, flow, grid, label, paragraph } from '../../kit/picture/layout.js';
import { legend, loglog } from '../../kit/picture/plot.js';
import { bytes, list, millis } from '../../kit/format.js';
import { BUILDS, KERNELS, FIRST_N } from './cost.model.js';

const SERIES = BUILDS.flatMap((build) => KERNELS.map((kernel) => ({ build, kernel })));
const COLOURS = { fused: 'head-1', plain: 'positive' };
const QUICK = 2048; // the sweep the figure starts by itself (cost.js)

export default function picture(pen) {
  const { t } = pen;
  const { n, d } = pen.state;
  const maxN = Math.min(QUICK, n);
  const names = SERIES.map((sr) => t('series', { kernel: t(sr.kernel), build: t(sr.build) }));
  const items = list(SERIES.map((sr) => `${t(sr.kernel)} ${t(sr.build)}`), pen.lang);
  const ticks = [];
  for (let l = Math.log2(FIRST_N); l <= Math.log2(Math.max(maxN, FIRST_N * 2)); l += 2) ticks.push(2 ** l);
  const plotW = Math.min(300, pen.inner);
  const ns = [];
  for (let k = FIRST_N; k <= maxN; k *= 2) ns.push(k);
  const table = grid([
    [label(pen, 'N', { size: 12, bold: true }), ...SERIES.map((sr) => label(pen, `${t(sr.kernel)} ${t(sr.build)}`, { size: 12, bold: true }))],
    ...ns.map((k) => [label(pen, String(k), { size: 12 }), ...SERIES.map(() => label(pen, '\u2013', { size: 12, color: 'muted' }))]),
  ], { gap: 18, rowGap: 3 });
  return {
    body: column([
      paragraph(pen, `${pen.pt('setting', { name: t('largestN'), value: n })} \u00b7 ${pen.pt('setting', { name: 'd', value: d })}`, { size: 13, width: pen.inner }),
      legend(pen, SERIES.map((sr, i) => ({ colour: COLOURS[sr.kernel], name: names[i], dashed: sr.build === 'scalar' })), pen.inner),
      flow([
        loglog(pen, { title: t('timePlot'), xTicks: ticks, xLabel: t('nAxis'), yFormat: millis, width: plotW, empty: pen.pt('noTimings') }),
        loglog(pen, { title: t('memoryPlot'), xTicks: ticks, xLabel: t('nAxis'), yFormat: bytes, base: 16, width: plotW, empty: pen.pt('noTimings') }),
      ], pen.inner, { gap: 12 }),
      table,
      paragraph(pen, pen.pt('measures', { items, from: FIRST_N, to: n }), { size: 12, width: pen.inner }),
    ], { gap: 10 }),
    notes: [pen.pt('notMeasured')],
    summary: `${t('title')}. ${pen.pt('measures', { items, from: FIRST_N, to: n })} ${pen.pt('notMeasured')}`,
  };
}
