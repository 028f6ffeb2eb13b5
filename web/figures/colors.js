// colors.js: CSS colours resolved to RGB in a figure's own theme.
//
// The scale's colours are CSS (custom properties mixed in oklab), which a
// canvas cannot read and contrast arithmetic needs as numbers. A probe
// element inside the figure's shadow root resolves them with the browser's
// own colour mixing; results are cached per theme (the three scale colours
// as the page set them), so a theme switch resolves afresh.
import { labelFor } from './scale.js';

const cache = new Map();
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
    keys.set(node, ['zero', 'positive', 'negative'].map((k) => cs.getPropertyValue(`--attention-${k}`).trim()).join('|'));
  }
  return keys.get(node);
}

/** [r, g, b] (0..255) of the CSS colour `css` inside `root` (a shadow root). */
export function resolveRgb(root, css) {
  const host = root.host ?? root;
  const key = `${themeKey(host)}|${css}`;
  if (!cache.has(key)) {
    const probe = document.createElement('span');
    probe.style.color = css;
    root.append(probe);
    ctx ??= document.createElement('canvas').getContext('2d', { willReadFrequently: true });
    ctx.clearRect(0, 0, 1, 1);
    ctx.fillStyle = getComputedStyle(probe).color;
    ctx.fillRect(0, 0, 1, 1);
    cache.set(key, Array.from(ctx.getImageData(0, 0, 1, 1).data.subarray(0, 3)));
    probe.remove();
  }
  return cache.get(key);
}

/** Black or white, whichever reads better on a cell filled with `css` (see scale.labelFor). */
export const labelColor = (root, css) => labelFor(resolveRgb(root, css));
