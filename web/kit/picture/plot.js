// plot.js: the figures' plots as pictures: a log-log plot as
// web/kit/draw/loglog.js draws it (the Performer's error, the gradient's
// norm, times against N), and the axes of a plot a figure has not filled
// yet (a training or measuring figure before it runs).
import { el, text } from './svg.js';
import { block, flow, label, row } from './layout.js';

/**
 * loglog(pen, {title, series: [{colour, points: [[x, y]], dashed, reference}],
 * xTicks, xLabel, yFormat, base, highlight: [x, y], width, height, empty})
 * -> a block drawn as loglog.js draws it; `empty` (text) writes that in the
 * plot's middle instead of data.
 */
export function loglog(pen, { title, series = [], xTicks, xLabel, yFormat = String, base = 10, highlight = null, width = 300, height = 200, empty = null, yRange = null }) {
  const [W, H, L, B, TOP] = [width, height, 52, 28, 18];
  const xs = [...xTicks, ...series.flatMap((sr) => sr.points.map((p) => p[0]))];
  const ys = series.flatMap((sr) => sr.points.map((p) => p[1])).filter((y) => y > 0);
  const logB = (v) => Math.log(v) / Math.log(base);
  const [lo, hi] = ys.length ? [Math.min(...ys), Math.max(...ys)] : [1, base];
  const [y0, y1] = yRange ?? [Math.floor(logB(lo)), Math.max(Math.ceil(logB(hi)), Math.floor(logB(lo)) + 1)];
  const [x0, x1] = [Math.log2(Math.min(...xs)), Math.log2(Math.max(...xs))];
  const X = (x) => L + ((Math.log2(x) - x0) / (x1 - x0 || 1)) * (W - L - 8);
  const Y = (y) => TOP + (1 - (logB(y) - y0) / (y1 - y0)) * (H - B - TOP);
  return block(W, H, (ox, oy) => {
    const at = (x, y) => [ox + x, oy + y];
    const out = [text({ x: ox + L, y: oy + 11, 'font-size': 12, 'font-weight': 600, fill: pen.c('fg') }, title)];
    for (let e = y0; e <= y1; e++) {
      const [gx, gy] = at(L, Y(base ** e));
      out.push(el('line', { x1: gx, x2: ox + W - 8, y1: gy, y2: gy, stroke: pen.c('border'), 'stroke-width': 0.5 }));
      if (!empty) out.push(text({ x: gx - 4, y: gy + 3, 'font-size': 10, 'text-anchor': 'end', fill: pen.c('muted') }, yFormat(base ** e)));
    }
    for (const x of xTicks) out.push(text({ x: ox + X(x), y: oy + H - B + 14, 'font-size': 10, 'text-anchor': 'middle', fill: pen.c('muted') }, String(x)));
    out.push(text({ x: ox + (L + W) / 2, y: oy + H - 2, 'font-size': 10, 'text-anchor': 'middle', fill: pen.c('muted') }, xLabel));
    for (const sr of series) {
      const pts = sr.points.filter((p) => p[1] > 0);
      if (!pts.length) continue;
      const colour = pen.c(sr.colour);
      out.push(el('polyline', { points: pts.map(([x, y]) => at(X(x), Y(y)).map((v) => Math.round(v * 100) / 100).join(',')).join(' '), fill: 'none', stroke: colour,
        'stroke-width': sr.reference ? 1 : 2, 'stroke-dasharray': sr.reference ? '3 3' : sr.dashed ? '5 3' : null }));
      if (!sr.reference) out.push(...pts.map(([x, y]) => el('circle', { cx: ox + X(x), cy: oy + Y(y), r: 2.6, fill: colour })));
    }
    if (highlight) out.push(el('circle', { cx: ox + X(highlight[0]), cy: oy + Y(highlight[1]), r: 5, fill: 'none', stroke: pen.c('accent'), 'stroke-width': 2 }));
    if (empty) out.push(text({ x: ox + (L + W - 8) / 2, y: oy + (TOP + H - B) / 2 + 4, 'font-size': 11, 'text-anchor': 'middle', fill: pen.c('muted'), 'font-style': 'italic' }, empty));
    return out.join('');
  });
}

/**
 * A loss plot's axes as the training figures draw them (induction.js,
 * tiny-gpt.js): y from 0 to yMax in whole nats, x from 0 to `steps`, a
 * dashed reference line with its label; `series` [{colour, points: [[step, loss]]}]
 * drawn as lines with a dot on the last point.
 */
export function lossPlot(pen, { width, steps, yMax, stepAxis, lossAxis, references = [], series = [] }) {
  const [PH, PL, PB, PT] = [210, 40, 30, 24];
  const PW = width;
  const X = (st) => PL + (st / steps) * (PW - PL - 10);
  const Y = (v) => PT + (1 - v / yMax) * (PH - PB - PT);
  return block(PW, PH, (ox, oy) => {
    const out = [];
    const muted = { 'font-size': 11, fill: pen.c('muted') };
    for (let v = 0; v <= yMax; v++) {
      out.push(el('line', { x1: ox + PL, x2: ox + PW - 10, y1: oy + Y(v), y2: oy + Y(v), stroke: pen.c('border'), 'stroke-width': 0.5 }),
        text({ x: ox + PL - 6, y: oy + Y(v) + 4, 'text-anchor': 'end', ...muted }, String(v)));
    }
    for (let k = 0; k <= 4; k++) {
      const st = Math.round((k * steps) / 4);
      out.push(text({ x: ox + X(st), y: oy + PH - PB + 15, 'text-anchor': 'middle', ...muted }, String(st)));
    }
    out.push(text({ x: ox + (PL + PW) / 2, y: oy + PH - 2, 'text-anchor': 'middle', ...muted }, stepAxis), text({ x: ox + 4, y: oy + 10, ...muted }, lossAxis));
    for (const r of references) {
      out.push(el('line', { x1: ox + PL, x2: ox + PW - 10, y1: oy + Y(r.value), y2: oy + Y(r.value), stroke: pen.c('muted'), 'stroke-dasharray': '4 3' }),
        text({ x: ox + PW - 12, y: oy + Y(r.value) + (r.below ? 13 : -4), 'text-anchor': 'end', ...muted }, r.label));
    }
    for (const sr of series) {
      if (!sr.points.length) continue;
      const colour = pen.c(sr.colour);
      out.push(el('polyline', { points: sr.points.map(([s, v]) => `${Math.round((ox + X(s)) * 10) / 10},${Math.round((oy + Y(v)) * 10) / 10}`).join(' '), fill: 'none', stroke: colour, 'stroke-width': 2 }));
      const [ls, lv] = sr.points.at(-1);
      out.push(el('circle', { cx: ox + X(ls), cy: oy + Y(lv), r: 3, fill: colour }));
    }
    return out.join('');
  });
}

/** A legend: for each series a short line of its colour (dashed where it is) and its name, wrapping at `width`. */
export function legend(pen, items, width, size = 12) {
  return flow(items.map(({ colour, name, dashed }) => row([
    block(22, size, (x, y) => el('line', { x1: x, x2: x + 22, y1: y + size / 2, y2: y + size / 2, stroke: pen.c(colour), 'stroke-width': 3, 'stroke-dasharray': dashed ? '5 3' : null })),
    label(pen, name, { size }),
  ], { gap: 5 })), width, { gap: 16, rowGap: 4, align: 'middle' });
}
