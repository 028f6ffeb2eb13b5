// layout.js: a picture's layout without a layout engine. A block is
// {w, h, draw(x, y)}: its size in px and the SVG it draws with its top left
// at (x, y). Blocks go in columns, in rows that wrap at a width (as a
// flex-wrap row does), in panels; text comes in lines wrapped to a width
// (text.js measures it).
import { el, esc, text as svgText } from './svg.js';
import { textWidth, wrap, lineWidth } from './text.js';

/** A block of size w x h drawn by draw(x, y). */
export const block = (w, h, draw = () => '') => ({ w, h, draw });

/** Nothing, w x h. */
export const space = (w, h) => block(w, h);

/** Blocks one under another, `gap` px apart, aligned left (or 'center'). */
export function column(blocks, { gap = 8, align = 'left' } = {}) {
  const kids = blocks.filter(Boolean);
  const w = Math.max(0, ...kids.map((b) => b.w));
  const h = kids.reduce((s, b) => s + b.h, 0) + gap * Math.max(0, kids.length - 1);
  return block(w, h, (x, y) => {
    let at = y;
    return kids.map((b) => {
      const out = b.draw(x + (align === 'center' ? (w - b.w) / 2 : 0), at);
      at += b.h + gap;
      return out;
    }).join('');
  });
}

/** Blocks side by side on one line, `gap` px apart, aligned 'top', 'middle' or 'bottom'. */
export function row(blocks, { gap = 8, align = 'middle' } = {}) {
  const kids = blocks.filter(Boolean);
  const h = Math.max(0, ...kids.map((b) => b.h));
  const w = kids.reduce((s, b) => s + b.w, 0) + gap * Math.max(0, kids.length - 1);
  return block(w, h, (x, y) => {
    let at = x;
    return kids.map((b) => {
      const dy = align === 'top' ? 0 : align === 'bottom' ? h - b.h : (h - b.h) / 2;
      const out = b.draw(at, y + dy);
      at += b.w + gap;
      return out;
    }).join('');
  });
}

/** Blocks in rows no wider than `width`, wrapping as a flex-wrap row does. */
export function flow(blocks, width, { gap = 16, rowGap = 12, align = 'top' } = {}) {
  const lines = [[]];
  let used = 0;
  for (const b of blocks.filter(Boolean)) {
    if (lines.at(-1).length && used + gap + b.w > width) {
      lines.push([]);
      used = 0;
    }
    used += (lines.at(-1).length ? gap : 0) + b.w;
    lines.at(-1).push(b);
  }
  return column(lines.map((l) => row(l, { gap, align })), { gap: rowGap });
}

/** `b` drawn at scale k (to fit a narrow picture). */
export function scaled(b, k) {
  if (k >= 1) return b;
  return block(b.w * k, b.h * k, (x, y) => el('g', { transform: `translate(${x} ${y}) scale(${Math.round(k * 1000) / 1000})` }, b.draw(0, 0)));
}

/** `b` shrunk to fit `width` if it is wider. */
export const fit = (b, width) => scaled(b, Math.min(1, width / b.w));

/** `b` on a rounded panel of colour `fill` (a palette key), `pad` px around it. */
export function panel(pen, b, { pad = 10, fill = 'panel', width = null, stroke = null } = {}) {
  const w = Math.max(width ?? 0, b.w + 2 * pad);
  return block(w, b.h + 2 * pad, (x, y) => el('rect', { x, y, width: w, height: b.h + 2 * pad, rx: 8, fill: pen.c(fill), stroke: stroke && pen.c(stroke) })
    + b.draw(x + pad, y + pad));
}

// one wrapped line as a <text>, bold runs as tspans
function lineSvg(line, x, y, size, attrs) {
  const parts = line.map((p) => (p.bold ? el('tspan', { 'font-weight': 700 }, esc(p.text)) : esc(p.text)));
  return el('text', { x, y, 'font-size': size, ...attrs }, parts.join(''));
}

/**
 * Text wrapped to `width` px (none: one line), **bold** runs bold:
 * size in px, colour a palette key, `bold` for all of it, `align` left,
 * center or right within `width`.
 */
export function paragraph(pen, content, { size = 13, color = 'fg', bold = false, width = Infinity, lineHeight = 1.4, align = 'left', attrs = {} } = {}) {
  const source = bold ? `**${String(content).replace(/\*\*/g, '')}**` : String(content);
  const lines = wrap(source, width, size);
  const lh = size * lineHeight;
  const w = Math.min(width, Math.max(0, ...lines.map((l) => lineWidth(l, size))));
  const boxW = Number.isFinite(width) && align !== 'left' ? width : w;
  return block(boxW, lines.length * lh, (x, y) => lines.map((line, i) => {
    const lw = lineWidth(line, size);
    const dx = align === 'center' ? (boxW - lw) / 2 : align === 'right' ? boxW - lw : 0;
    return lineSvg(line, x + dx, y + i * lh + lh / 2 + size * 0.35, size, { fill: pen.c(color), ...attrs });
  }).join(''));
}

/** One line of plain text (no wrapping, no mark-up). */
export function label(pen, content, { size = 12, color = 'fg', bold = false, attrs = {} } = {}) {
  const w = textWidth(content, size, bold);
  return block(w, size * 1.4, (x, y) => svgText({ x, y: y + size * 1.05, 'font-size': size, fill: pen.c(color), 'font-weight': bold ? 700 : null, ...attrs }, content));
}

/** A colour swatch: a rounded square of CSS colour `fill`, with a border. */
export const swatch = (pen, fill, size = 18) => block(size, size, (x, y) => el('rect', {
  x: x + 0.5, y: y + 0.5, width: size - 1, height: size - 1, rx: 3, fill, stroke: pen.c('border'),
}));

/** A horizontal bar `fraction` (0..1) of `width` long on a track. */
export function bar(pen, fraction, { width = 160, height = 12, color = 'positive', track = false } = {}) {
  const f = Math.max(0, Math.min(1, fraction));
  return block(width, height, (x, y) => (track ? el('rect', { x, y, width, height, rx: height / 2, fill: pen.c('panel') }) : '')
    + el('rect', { x, y, width: Math.max(1, f * width), height, rx: track ? height / 2 : 3, fill: pen.c(color) }));
}

/**
 * A table of rows of blocks, columns as wide as their widest cell
 * (`widths` overrides some), `gap` px between columns and `rowGap` between rows.
 */
export function grid(rows, { gap = 8, rowGap = 4, widths = [], align = 'middle' } = {}) {
  const n = Math.max(...rows.map((r) => r.length));
  const cols = Array.from({ length: n }, (_, j) => widths[j] ?? Math.max(0, ...rows.map((r) => r[j]?.w ?? 0)));
  return column(rows.map((r) => {
    const cells = cols.map((w, j) => {
      const b = r[j] ?? space(0, 0);
      return block(w, b.h, (x, y) => b.draw(b.alignRight ? x + w - b.w : x, y));
    });
    return row(cells, { gap, align });
  }), { gap: rowGap });
}

/** `b` to be drawn against the right edge of its grid cell. */
export const right = (b) => ({ ...b, alignRight: true });

/** An operator between matrices (×, =, →), as the figures set them. */
export const op = (pen, symbol) => label(pen, symbol, { size: 18, color: 'muted' });

/** A control's setting as a line: "Temperature T: 0.20" (the pictures' words). */
export const setting = (pen, name, value, width = pen.inner) => paragraph(pen, pen.pt('setting', { name, value }), { size: 13, width });

/** `b` outlined in the accent colour, `gap` px around it (what the figure marks as just made). */
export const outlined = (pen, b, gap = 4) => block(b.w + 2 * gap, b.h + 2 * gap, (x, y) => b.draw(x + gap, y + gap)
  + el('rect', { x: x + 1, y: y + 1, width: b.w + 2 * gap - 2, height: b.h + 2 * gap - 2, rx: 3, fill: 'none', stroke: pen.c('accent'), 'stroke-width': 2 }));

/** A string-table text with inline TeX ($…$) written as plain text, for a picture (which has no typesetter). */
export const plainTex = (content) => String(content).replace(/\$([^$]+)\$/g, (_, tex) => tex
  .replace(/\\(boldsymbol|mathrm|text|mathbf)\{([^}]*)\}/g, '$2').replace(/\^\{?T\}?/g, '\u1d40').replace(/\\sqrt\{([^}]*)\}/g, '\u221a$1')
  .replace(/\\[a-zA-Z]+/g, '').replace(/[{}]/g, ''));
