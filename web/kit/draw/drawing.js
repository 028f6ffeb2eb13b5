// drawing.js: a drawing as data. A list of items in CSS pixels (boxes,
// lines, polylines, lines of text) that a canvas paints and that export.js
// writes as SVG or paints into a PNG. export.js collects a figure's HTML
// into such items. A canvas may offer what it painted as items
// (`canvas.drawing`): matrix.view.js its cells, heatmap and as-conv their
// many weighted lines (paintLines); a download then holds numbers as text
// and lines as lines, not pixels.
//   box:      {x, y, width, height, radius, fill, stroke, lineWidth, dash}
//   line:     {x1, y1, x2, y2, stroke, lineWidth, dash}
//   polyline: {points: [[x, y]], stroke, lineWidth}
//   text:     {text, x, y, width, height, font, color, ascent}: (x, y) is the
//             top left of its line box, `ascent` the baseline's depth in it
// Any item may also carry `opacity` and `clip` (a box it is cut to).

let measurer = null;
const measure = (font, text) => {
  measurer ??= document.createElement('canvas').getContext('2d');
  if (measurer.font !== font) measurer.font = font; // (parsing a font is the slow part)
  return measurer.measureText(text);
};

const boxes = new Map();
/** A CSS font's line box: {ascent, height}; `ascent` is the baseline's depth in it. */
export function lineBox(font) {
  if (!boxes.has(font)) {
    const m = measure(font, 'Hg');
    boxes.set(font, { ascent: m.fontBoundingBoxAscent, height: m.fontBoundingBoxAscent + m.fontBoundingBoxDescent });
  }
  return boxes.get(font);
}

/** The distance from the top of a text's line box to its baseline, for a CSS font. */
export const ascent = (font) => lineBox(font).ascent;

/** A text item of `font` (a CSS font string) centred on (cx, cy). */
export function centredText(text, cx, cy, font, color) {
  const { ascent: up, height } = lineBox(font);
  const width = measure(font, text).width;
  return { kind: 'text', text, x: cx - width / 2, y: cy - height / 2, width, height, font, color, ascent: up };
}

/** `items` scaled by k and moved by (dx, dy): a drawing placed where its canvas is shown. */
export function placed(items, dx, dy, k) {
  const at = (x, y) => [dx + k * x, dy + k * y];
  return items.map((it) => {
    const out = { ...it, lineWidth: it.lineWidth && it.lineWidth * k };
    if ('x' in it) [out.x, out.y, out.width, out.height] = [...at(it.x, it.y), k * it.width, k * it.height];
    if (it.kind === 'line') [out.x1, out.y1, out.x2, out.y2] = [...at(it.x1, it.y1), ...at(it.x2, it.y2)];
    if (it.kind === 'polyline') out.points = it.points.map(([x, y]) => at(x, y));
    if (it.kind === 'text') Object.assign(out, { font: it.font.replace(/[\d.]+px/, (px) => `${parseFloat(px) * k}px`), ascent: k * it.ascent });
    return out;
  });
}

/**
 * Paint `items` onto ctx at `scale` device pixels per CSS pixel. Kinds it
 * does not know are handed to `other(ctx, item)`, inside the item's clip
 * and opacity.
 */
export function paintItems(ctx, items, scale, other = () => {}) {
  for (const it of items) {
    ctx.save();
    ctx.setTransform(scale, 0, 0, scale, 0, 0);
    if (it.clip) {
      ctx.beginPath();
      ctx.rect(it.clip.x, it.clip.y, it.clip.width, it.clip.height);
      ctx.clip();
    }
    ctx.globalAlpha = it.opacity ?? 1;
    ctx.setLineDash(it.dash ?? []);
    if (it.kind === 'box') {
      const p = new Path2D();
      p.roundRect(it.x, it.y, it.width, it.height, Math.min(it.radius || 0, it.width / 2, it.height / 2));
      if (it.fill) { ctx.fillStyle = it.fill; ctx.fill(p); }
      if (it.stroke) { ctx.strokeStyle = it.stroke; ctx.lineWidth = it.lineWidth; ctx.stroke(p); }
    } else if (it.kind === 'line' || it.kind === 'polyline') {
      const pts = it.kind === 'line' ? [[it.x1, it.y1], [it.x2, it.y2]] : it.points;
      ctx.beginPath();
      pts.forEach(([x, y], k) => (k ? ctx.lineTo(x, y) : ctx.moveTo(x, y)));
      ctx.strokeStyle = it.stroke;
      ctx.lineWidth = it.lineWidth;
      ctx.stroke();
    } else if (it.kind === 'text') {
      ctx.font = it.font;
      ctx.fillStyle = it.color;
      ctx.textBaseline = 'alphabetic';
      ctx.textAlign = 'left';
      ctx.fillText(it.text, it.x, it.y + it.ascent);
    } else {
      other(ctx, it);
    }
    ctx.restore();
  }
}

/**
 * Paint line items onto `canvas`, which shows a `width` x `height` CSS px
 * drawing (as many canvas pixels as screen pixels), and keep them as
 * `canvas.drawing`: a download writes them as lines, not pixels.
 */
export function paintLines(canvas, lines, width, height) {
  const k = globalThis.devicePixelRatio || 1;
  const [cw, ch] = [Math.round(width * k), Math.round(height * k)];
  const sized = canvas.width === cw && canvas.height === ch;
  // the same lines at the same size are the same pixels (a temperature near a limit moves nothing)
  const was = canvas.drawing;
  if (sized && was?.width === width && was.height === height && sameLines(was.items, lines)) return;
  if (!sized) [canvas.width, canvas.height] = [cw, ch];
  const ctx = canvas.getContext('2d');
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, cw, ch);
  ctx.setTransform(cw / width, 0, 0, ch / height, 0, 0);
  for (const it of lines) {
    ctx.globalAlpha = it.opacity ?? 1;
    ctx.strokeStyle = it.stroke;
    ctx.lineWidth = it.lineWidth;
    ctx.lineCap = it.cap ?? 'butt';
    ctx.beginPath();
    ctx.moveTo(it.x1, it.y1);
    ctx.lineTo(it.x2, it.y2);
    ctx.stroke();
  }
  canvas.drawing = { width, height, items: lines };
}

// (the keys of a line item that paintLines paints)
const LINE_KEYS = ['x1', 'y1', 'x2', 'y2', 'stroke', 'lineWidth', 'opacity', 'cap'];
const sameLines = (a, b) => a.length === b.length && a.every((it, i) => LINE_KEYS.every((k) => it[k] === b[i][k]));
