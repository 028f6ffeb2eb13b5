// matrix.js: a matrix as coloured squares, as the figures draw it
// (web/kit/draw/matrix-view.js): the project's one colour scale
// (scale.js), values printed black or white on their squares where the
// figure prints them (rows of weights printed to add up to 1), row labels
// on the left, column labels slanted above, marked squares outlined, the
// heads' column groups as coloured bars, and the caption under it: its
// name and shape.
import { el, esc, fmt, text } from './svg.js';
import { block } from './layout.js';
import { textWidth } from './text.js';
import { labelFor, maxAbs, rgbColor } from '../draw/scale.js';
import { num, roundShares } from '../format.js';

const LABEL_PX = 11;
const VALUE_PX = 10;
const CAPTION_PX = 12;
const LEVELS = 64; // scale-canvas.js's steps
const SLANT = (40 * Math.PI) / 180;

/** [r, g, b] as #rrggbb. */
export const hex = (rgb) => `#${rgb.map((c) => c.toString(16).padStart(2, '0')).join('')}`;

/**
 * A grid's cells [{i, j, fill}] (a row's neighbours of one colour merged
 * into one run) as one <path> per colour, in units of a cell, placed at
 * (x, y) and scaled to `cell` px: a matrix of a thousand squares is then a
 * few dozen elements of a dozen bytes a square, not a thousand <rect>s.
 */
export function cells(list, x, y, cell) {
  const byFill = new Map();
  let run = null;
  const flush = () => {
    if (!run) return;
    if (!byFill.has(run.fill)) byFill.set(run.fill, []);
    byFill.get(run.fill).push(`M${run.j} ${run.i}h${run.n}v1h-${run.n}z`);
    run = null;
  };
  for (const c of list) {
    if (run && run.fill === c.fill && run.i === c.i && run.j + run.n === c.j) run.n++;
    else {
      flush();
      run = { ...c, n: 1 };
    }
  }
  flush();
  return el('g', { transform: `translate(${fmt(x)} ${fmt(y)}) scale(${Math.round(cell * 10000) / 10000})` },
    [...byFill].map(([fill, d]) => el('path', { fill, d: d.join('') })));
}

const asRows = (M) => (Array.isArray(M) ? M.map((r) => Array.from(r))
  : Array.from({ length: M.rows }, (_, i) => Array.from(M.data.subarray(i * M.cols, (i + 1) * M.cols))));

/**
 * matrix(pen, M, {name, cell, values, digits, shares, rowLabels, colLabels,
 * max, marks, groups, caption}) -> a block. M: {rows, cols, data} or an
 * array of rows; `marks` a Set of "i,j"; `groups` the number of heads
 * whose column groups get bars; `caption: false` leaves the caption out.
 */
export function matrix(pen, M, { name = '', cell = 22, values = false, digits = 2, shares = false, rowLabels = null, colLabels = null, max, marks = null, groups = 0, caption = true } = {}) {
  const rows = asRows(M);
  const [n, m] = [rows.length, rows[0]?.length ?? 0];
  const full = max ?? maxAbs(rows.flat());
  const widest = (labels) => Math.max(0, ...labels.map((t) => textWidth(String(t), LABEL_PX)));
  const lw = rowLabels ? widest(rowLabels) + 6 : 0;
  const colW = colLabels ? widest(colLabels) : 0;
  const th = colLabels ? colW * Math.sin(SLANT) + 10 : 0;
  // a slanted label reaches right of its column by its width's cosine
  const overhang = colLabels ? Math.max(0, colW * Math.cos(SLANT) - cell / 2 + 4) : 0;
  const gridW = lw + m * cell;
  const bars = groups ? 8 : 0;
  const capText = `${name} ${n}\u00d7${m}`;
  const capW = caption ? textWidth(capText, CAPTION_PX, false) + 4 : 0;
  const w = Math.max(gridW + overhang, capW);
  const h = th + n * cell + bars + (caption ? CAPTION_PX * 1.6 : 0);
  return block(w, h, (x, y) => {
    const x0 = x + lw;
    const y0 = y + th;
    const squares = [];
    const labels = [];
    rows.forEach((r, i) => {
      const printed = values ? (shares ? roundShares(r, digits) : r).map((v) => num(v, digits)) : null;
      r.forEach((v, j) => {
        const rgb = rgbColor(v, full, pen.scale);
        squares.push({ i, j, fill: hex(rgb) });
        if (printed) labels.push(text({ x: x0 + (j + 0.5) * cell, y: y0 + (i + 0.5) * cell + VALUE_PX * 0.35, 'font-size': VALUE_PX, 'text-anchor': 'middle', fill: labelFor(rgb) }, printed[j]));
      });
    });
    const out = [cells(squares, x0, y0, cell), ...labels];
    // the seams between squares, in the background's colour
    const seams = [...Array.from({ length: n + 1 }, (_, i) => `M${x0} ${y0 + i * cell}h${m * cell}`),
      ...Array.from({ length: m + 1 }, (_, j) => `M${x0 + j * cell} ${y0}v${n * cell}`)].join('');
    out.push(el('path', { d: seams, fill: 'none', stroke: pen.c('bg'), 'stroke-width': 1 }));
    for (const ij of marks ?? []) {
      const [i, j] = ij.split(',').map(Number);
      out.push(el('rect', { x: x0 + j * cell, y: y0 + i * cell, width: cell, height: cell, fill: 'none', stroke: pen.c('accent'), 'stroke-width': 2 }));
    }
    if (groups) {
      const gw = (m / groups) * cell;
      for (let k = 0; k < groups; k++) out.push(el('rect', { x: x0 + k * gw + 1, y: y0 + n * cell + 3, width: gw - 2, height: 4, rx: 2, fill: pen.c(`head-${k + 1}`) }));
    }
    rowLabels?.forEach((t, i) => out.push(text({ x: x0 - 5, y: y0 + (i + 0.5) * cell + LABEL_PX * 0.35, 'font-size': LABEL_PX, 'text-anchor': 'end', fill: pen.c('muted') }, t)));
    colLabels?.forEach((t, j) => {
      const [cx, cy] = [x0 + (j + 0.5) * cell, y0 - 6];
      out.push(text({ x: cx, y: cy, 'font-size': LABEL_PX, fill: pen.c('muted'), transform: `rotate(-40 ${Math.round(cx * 100) / 100} ${Math.round(cy * 100) / 100})` }, t));
    });
    if (caption) {
      const cy = y0 + n * cell + bars + CAPTION_PX * 1.25;
      const cx = x0 + (m * cell) / 2;
      out.push(el('text', { x: Math.max(x + capW / 2, cx), y: cy, 'font-size': CAPTION_PX, 'text-anchor': 'middle', fill: pen.c('muted') },
        el('tspan', { fill: pen.c('fg'), 'font-weight': 600 }, esc(name)), esc(` ${n}\u00d7${m}`)));
    }
    return out.join('');
  });
}

/**
 * A matrix as one small image, a pixel per value (web/kit/draw/scale-canvas.js's
 * drawing for maps too large for squares), `size` px square, with a border.
 */
export function pixels(pen, M, { size = 120, max = 1, border = 'border' } = {}) {
  const k = size / Math.max(M.rows, M.cols);
  return block(M.cols * k, M.rows * k, (x, y) => {
    const list = [];
    for (let i = 0; i < M.rows; i++) {
      for (let j = 0; j < M.cols; j++) {
        const v = M.data[i * M.cols + j];
        // in scale-canvas.js's 64 steps of the scale
        const level = Math.sign(v) * Math.round(Math.min(1, Math.abs(v) / max) * LEVELS) / LEVELS;
        list.push({ i, j, fill: hex(rgbColor(level, 1, pen.scale)) });
      }
    }
    return cells(list, x, y, k) + el('rect', { x, y, width: M.cols * k, height: M.rows * k, fill: 'none', stroke: pen.c(border) });
  });
}
