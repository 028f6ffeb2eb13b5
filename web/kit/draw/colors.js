// colors.js: the colour scale resolved to RGB in a figure's own theme.
//
// The scale's colours are CSS (custom properties mixed in oklab), which a
// canvas cannot read and contrast arithmetic needs as numbers. A probe
// element inside the figure's shadow root resolves the theme's three
// colours with the browser's own colour parsing, once per theme (the three
// custom properties as the page set them, so a theme switch resolves
// afresh); scale.rgbColor mixes them as color-mix does.
import { labelFor, rgbColor } from './scale.js';

/**
 * The themes' colours, each the value of a custom property --attention-<key>
 * (styles.js writes them; a page may override any). What the figures draw
 * in CSS, and what a picture drawn without a browser resolves them to
 * (web/kit/picture/).
 */
export const PALETTE = Object.freeze({
  light: Object.freeze({
    bg: '#ffffff', fg: '#1d1f24', muted: '#5c6370', border: '#d5d8de', panel: '#f5f6f8',
    zero: '#f1f1ee', positive: '#c45a00', negative: '#1f62b4', 'on-strong': '#ffffff', accent: '#6b3fb5',
    'head-1': '#007c61', 'head-2': '#b8447f', 'head-3': '#0a72b8', 'head-4': '#aa5500', 'head-5': '#7a6a00',
    query: '#7c4dcc', key: '#8c6600', value: '#007c61',
  }),
  dark: Object.freeze({
    bg: '#17181c', fg: '#e8e9ec', muted: '#a2a8b3', border: '#3a3d45', panel: '#202228',
    zero: '#272930', positive: '#ff9e3d', negative: '#5aa7ff', 'on-strong': '#111216', accent: '#b692f6',
    'head-1': '#3fd1a6', 'head-2': '#f08cc0', 'head-3': '#6cc0ff', 'head-4': '#ffab5c', 'head-5': '#d8c34a',
    query: '#b692f6', key: '#f2c14e', value: '#3fd1a6',
  }),
});

const HUES = ['zero', 'positive', 'negative'];
const HEADS = [1, 2, 3, 4, 5].map((k) => `head-${k}`); // the heads' colours, also themed
const themes = new Map();
const resolved = new Map(); // theme key + CSS colour -> [r, g, b]
let ctx = null;

// Theme keys as last read, per element: reading computed style after a
// change (a slider's value, a figure's own writes) forces a style
// recalculation there and then: on the article, a seventh of a small
// change's script at a phone's speed. A figure's scheme changing forgets its key (forgetTheme);
// anything else that changes the custom properties (a page's own script) is
// read within KEY_MS, on the next change.
const keys = new WeakMap(); // node -> {key, at}
const KEY_MS = 1000;

/** The theme's key: the scale's three custom properties as `node` sees them. */
function themeKey(node) {
  const now = performance.now();
  let known = keys.get(node);
  if (!known || now - known.at > KEY_MS) {
    const cs = getComputedStyle(node);
    keys.set(node, known = { key: [...HUES, ...HEADS].map((k) => cs.getPropertyValue(`--attention-${k}`).trim()).join('|'), at: now });
  }
  return known.key;
}

/** Read `node`'s theme again when next asked (its scheme changed). */
export const forgetTheme = (node) => keys.delete(node);

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
export const rgbText = (rgb) => {
  let text = texts.get(rgb);
  if (!text) texts.set(rgb, text = `rgb(${rgb[0]}, ${rgb[1]}, ${rgb[2]})`);
  return text;
};
const texts = new WeakMap(); // [r, g, b] (scale.rgbColor's are kept) -> its CSS text

/** [r, g, b] of the scale's colour for value v at full scale max, in `root`'s theme. */
export const scaleRgb = (root, v, max = 1) => rgbColor(v, max, theme(root));

/** Black or white, whichever reads better on the scale's cell for v (see scale.labelFor). */
export const labelColor = (root, v, max = 1) => labelFor(scaleRgb(root, v, max));
