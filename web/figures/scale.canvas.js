// scale.canvas.js: matrices too large for one SVG square per value, painted
// pixel by pixel onto a canvas with the project's one colour scale.
//
// The scale's colours are CSS (custom properties mixed in oklab), which a
// canvas cannot read directly: palette() resolves a ladder of them once in
// the figure's own theme, through a probe element inside its shadow root.
import { cssColor } from './scale.js';

const LEVELS = 64;

/** The scale as RGB triples: {positive: [LEVELS + 1], negative: [LEVELS + 1]}, in `root`'s theme. */
export function palette(root) {
  const probe = document.createElement('span');
  root.append(probe);
  const ctx = document.createElement('canvas').getContext('2d', { willReadFrequently: true });
  const rgb = (css) => {
    probe.style.color = css;
    ctx.clearRect(0, 0, 1, 1);
    ctx.fillStyle = getComputedStyle(probe).color;
    ctx.fillRect(0, 0, 1, 1);
    return Array.from(ctx.getImageData(0, 0, 1, 1).data.subarray(0, 3));
  };
  const ladder = (sign) => Array.from({ length: LEVELS + 1 }, (_, k) => rgb(cssColor((sign * k) / LEVELS, 1)));
  const colors = { positive: ladder(1), negative: ladder(-1) };
  probe.remove();
  return colors;
}

/** Paint M ({rows, cols, data}) onto `canvas`, one pixel per value, full scale at `max`. */
export function paintMatrix(canvas, M, colors, max = 1) {
  canvas.width = M.cols;
  canvas.height = M.rows;
  const ctx = canvas.getContext('2d');
  const img = ctx.createImageData(M.cols, M.rows);
  for (let k = 0; k < M.data.length; k++) {
    const v = M.data[k];
    const level = Math.round(Math.min(1, Math.abs(v) / max) * LEVELS);
    const [r, g, b] = (v < 0 ? colors.negative : colors.positive)[level];
    img.data.set([r, g, b, 255], 4 * k);
  }
  ctx.putImageData(img, 0, 0);
}
