// colors.js: the colour scale resolved to RGB in a figure's own theme.
//
// The scale's colours are CSS (custom properties mixed in oklab), which a
// canvas cannot read and contrast arithmetic needs as numbers. A probe
// element inside the figure's shadow root resolves the theme's three
// colours with the browser's own colour parsing, once per theme (the three
// custom properties as the page set them, so a theme switch resolves
// afresh); scale.rgbColor mixes them as color-mix does.
import { labelFor, rgbColor } from './scale.js';

const HUES = ['zero', 'positive', 'negative'];
const HEADS = [1, 2, 3, 4, 5].map((k) => `head-${k}`); // the heads' colours, also themed
const themes = new Map();
const resolved = new Map(); // theme key + CSS colour -> [r, g, b]
let ctx = null;

// Theme keys read in this task: reading computed style after a figure has
// just restyled a cell forces a style recalculation, once per cell of a
// matrix; the theme cannot change before the task ends, so read it once.
const keys = new Map();

/** The theme's key: the scale's three custom properties as `node` sees them. */
function themeKey(node) {
  if (!keys.has(node)) {
    if (!keys.size) queueMicrotask(() => keys.clear());
    const cs = getComputedStyle(node);
    keys.set(node, [...HUES, ...HEADS].map((k) => cs.getPropertyValue(`--attention-${k}`).trim()).join('|'));
  }
  return keys.get(node);
}

/** [r, g, b] (0..255) of the CSS colour `css` inside `root` (a shadow root). */
function probe(root, css) {
  const span = document.createElement('span');
  span.style.color = css;
  root.append(span);
  ctx ??= document.createElement('canvas').getContext('2d', { willReadFrequently: true });
  ctx.clearRect(0, 0, 1, 1);
  ctx.fillStyle = getComputedStyle(span).color;
  ctx.fillRect(0, 0, 1, 1);
  span.remove();
  return Array.from(ctx.getImageData(0, 0, 1, 1).data.subarray(0, 3));
}

/** The theme's {zero, positive, negative} as RGB, as `root` (a shadow root) sees them; the same object while the theme stays. */
export function theme(root) {
  const key = themeKey(root.host ?? root);
  if (!themes.has(key)) themes.set(key, Object.fromEntries(HUES.map((k) => [k, probe(root, `var(--attention-${k})`)])));
  return themes.get(key);
}

/** [r, g, b] of any CSS colour (custom properties too) as `root` (a shadow root) sees it, for a canvas. */
export function cssRgb(root, css) {
  const key = `${themeKey(root.host ?? root)}|${css}`;
  if (!resolved.has(key)) resolved.set(key, probe(root, css));
  return resolved.get(key);
}

/** [r, g, b] as CSS text, for a canvas's fillStyle or strokeStyle. */
export const rgbText = ([r, g, b]) => `rgb(${r}, ${g}, ${b})`;

/** [r, g, b] of the scale's colour for value v at full scale max, in `root`'s theme. */
export const scaleRgb = (root, v, max = 1) => rgbColor(v, max, theme(root));

/** Black or white, whichever reads better on the scale's cell for v (see scale.labelFor). */
export const labelColor = (root, v, max = 1) => labelFor(scaleRgb(root, v, max));
