// scale.canvas.js: matrices too large for one SVG square per value, painted
// pixel by pixel onto a canvas with the project's one colour scale.
import { scaleRgb, theme } from './colors.js';

const LEVELS = 64;
const palettes = new WeakMap(); // a theme (colors.theme's object) -> its palette

/** The scale as RGB triples: {positive: [LEVELS + 1], negative: [LEVELS + 1]}, in `root`'s theme; the same object while the theme stays. */
export function palette(root) {
  const colours = theme(root);
  if (!palettes.has(colours)) {
    const ladder = (sign) => Array.from({ length: LEVELS + 1 }, (_, k) => scaleRgb(root, (sign * k) / LEVELS));
    palettes.set(colours, { positive: ladder(1), negative: ladder(-1) });
  }
  return palettes.get(colours);
}

/** Paint M ({rows, cols, data}) onto `canvas`, one pixel per value, full scale at `max`. */
export function paintMatrix(canvas, M, colors, max = 1) {
  // (a canvas given its own size again is cleared and allocated again)
  if (canvas.width !== M.cols) canvas.width = M.cols;
  if (canvas.height !== M.rows) canvas.height = M.rows;
  const ctx = canvas.getContext('2d');
  const img = ctx.createImageData(M.cols, M.rows);
  const px = img.data;
  // (plain indexing, no destructuring: a figure's first paint runs before the
  // JIT has optimised this loop, and unoptimised destructuring walks an
  // iterator per pixel, several times the cost of the rest)
  for (let k = 0; k < M.data.length; k++) {
    const v = M.data[k];
    const rgb = (v < 0 ? colors.negative : colors.positive)[Math.round(Math.min(1, Math.abs(v) / max) * LEVELS)];
    px[4 * k] = rgb[0];
    px[4 * k + 1] = rgb[1];
    px[4 * k + 2] = rgb[2];
    px[4 * k + 3] = 255;
  }
  ctx.putImageData(img, 0, 0);
}
