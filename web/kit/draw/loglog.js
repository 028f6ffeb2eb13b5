// loglog.js: a small log-log line plot (SVG) of measured series, with
// gridlines at powers of `base` on y and labelled x values.
import { s } from '../dom.js';

const [W, H, L, B, TOP] = [300, 200, 52, 28, 18]; // size, left and bottom margins, title band

/**
 * loglogPlot({title, series: [{cls, points: [[x, y]], dashed, reference}],
 * xTicks, xLabel, yFormat, base, highlight: [x, y]}): an <svg>. A series with
 * `reference` is drawn thin and dashed (a guide line, not a measurement).
 */
export function loglogPlot({ title, series, xTicks, xLabel, yFormat = String, base = 10, highlight = null, label }) {
  const xs = [...xTicks, ...series.flatMap((sr) => sr.points.map((p) => p[0]))];
  const ys = series.flatMap((sr) => sr.points.map((p) => p[1])).filter((y) => y > 0);
  const logB = (v) => Math.log(v) / Math.log(base);
  const [lo, hi] = ys.length ? [Math.min(...ys), Math.max(...ys)] : [1, base];
  const [y0, y1] = [Math.floor(logB(lo)), Math.max(Math.ceil(logB(hi)), Math.floor(logB(lo)) + 1)];
  const [x0, x1] = [Math.log2(Math.min(...xs)), Math.log2(Math.max(...xs))];
  const X = (x) => L + ((Math.log2(x) - x0) / (x1 - x0 || 1)) * (W - L - 8);
  const Y = (y) => TOP + (1 - (logB(y) - y0) / (y1 - y0)) * (H - B - TOP);
  const kids = [s('text', { class: 'title', x: L, y: 11 }, title)];
  for (let e = y0; e <= y1; e++) {
    kids.push(s('line', { class: 'grid', x1: L, x2: W - 8, y1: Y(base ** e), y2: Y(base ** e) }),
      s('text', { x: L - 4, y: Y(base ** e) + 3, 'text-anchor': 'end' }, yFormat(base ** e)));
  }
  for (const x of xTicks) kids.push(s('text', { x: X(x), y: H - B + 14, 'text-anchor': 'middle' }, String(x)));
  kids.push(s('text', { x: (L + W) / 2, y: H - 2, 'text-anchor': 'middle' }, xLabel));
  for (const sr of series) {
    const pts = sr.points.filter((p) => p[1] > 0);
    if (!pts.length) continue;
    kids.push(s('polyline', { class: `${sr.cls}${sr.reference ? ' reference' : ''}`, points: pts.map(([x, y]) => `${X(x)},${Y(y)}`).join(' ') }));
    if (!sr.reference) kids.push(...pts.map(([x, y]) => s('circle', { class: sr.cls, cx: X(x), cy: Y(y), r: 2.6 })));
  }
  if (highlight) kids.push(s('circle', { class: 'highlight', cx: X(highlight[0]), cy: Y(highlight[1]), r: 5 }));
  return s('svg', { class: 'plot', viewBox: `0 0 ${W} ${H}`, width: W, role: 'img', 'aria-label': label ?? `${title}, log-log` }, kids);
}
