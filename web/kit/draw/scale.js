// scale.js: the one colour scale of the project.
//
// Every number a figure draws as a square goes through here: its sign picks
// the hue (blue for negative, orange for positive: a pair that stays apart
// for the common colour-vision deficiencies) and its magnitude, relative to
// the largest magnitude in view, picks how vibrant that hue is. Zero is the
// neutral surface colour. Themes change the three colours through CSS custom
// properties; the mapping itself never changes.

/** {hue: 'negative' | 'zero' | 'positive', vibrancy: 0..1} for value v at full scale max. */
export function colorOf(v, max = 1) {
  const m = max > 0 ? max : 1;
  const vibrancy = Math.min(1, Math.abs(v) / m);
  const hue = v > 0 ? 'positive' : v < 0 ? 'negative' : 'zero';
  return { hue, vibrancy: hue === 'zero' ? 0 : vibrancy };
}

/** The share (percent, 0.1 steps) of the sign's hue in the colour of v at full scale max. */
const share = (vibrancy) => Math.round(vibrancy * 1000) / 10;

/**
 * The CSS colour for value v: the neutral colour mixed with the sign's hue.
 * The scale's definition in CSS, which rgbColor follows (tests compare
 * them); figures paint rgbColor's resolved colours: many color-mix()es of
 * var()s restyle slowly.
 */
export function cssColor(v, max = 1) {
  const { hue, vibrancy } = colorOf(v, max);
  if (hue === 'zero') return 'var(--attention-zero)';
  return `color-mix(in oklab, var(--attention-${hue}) ${share(vibrancy)}%, var(--attention-zero))`;
}

/**
 * cssColor's colour as [r, g, b] (0..255), given the theme's three colours
 * as RGB ({zero, positive, negative}): the same oklab mix, done here so that
 * a figure labelling many cells needs no layout per cell.
 */
export function rgbColor(v, max, theme) {
  const { hue, vibrancy } = colorOf(v, max);
  if (hue === 'zero') return theme.zero;
  // a colour is one of 1,001 shares per hue: each mixed once per theme (a
  // matrix of 100 cells mixed 100 colours in oklab on every slider step)
  const per = mixes.get(theme) ?? newMixes(theme);
  const p = share(vibrancy);
  const k = Math.round(p * 10);
  return (per[hue][k] ??= mixOklab(theme[hue], theme.zero, p / 100));
}
const mixes = new WeakMap(); // theme -> {positive, negative}: [r, g, b] by share in 0.1 steps

// A theme's table, filled in the page's idle moments too (a slider that
// moves the full scale meets new shares at every step, each mixed in oklab).
function newMixes(theme) {
  const per = { positive: [], negative: [] };
  mixes.set(theme, per);
  const idle = globalThis.requestIdleCallback;
  if (idle) {
    let k = 0;
    const fill = (deadline) => {
      for (; k <= 1000 && deadline.timeRemaining() > 1; k++) {
        for (const hue of ['positive', 'negative']) per[hue][k] ??= mixOklab(theme[hue], theme.zero, k / 10 / 100); // (as rgbColor computes it: share / 100)
      }
      if (k <= 1000) idle(fill);
    };
    idle(fill);
  }
  return per;
}

// sRGB <-> OKLab (Ottosson 2020), the space CSS color-mix(in oklab) mixes in.
const toLinear = (c) => { const v = c / 255; return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
const toByte = (v) => Math.round(255 * Math.min(1, Math.max(0, v <= 0.0031308 ? 12.92 * v : 1.055 * v ** (1 / 2.4) - 0.055)));

function oklab(rgb) {
  const [r, g, b] = rgb.map(toLinear);
  const l = Math.cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b);
  const m = Math.cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b);
  const s = Math.cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b);
  return [0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s,
    1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s,
    0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s];
}

// (three numbers, not an array: a figure's first drawing mixes hundreds of
// colours before the JIT has optimised this, where every array and map costs)
function srgb(L, a, b) {
  const l = (L + 0.3963377774 * a + 0.2158037573 * b) ** 3;
  const m = (L - 0.1055613458 * a - 0.0638541728 * b) ** 3;
  const s = (L - 0.0894841775 * a - 1.2914855480 * b) ** 3;
  return [toByte(4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s),
    toByte(-1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s),
    toByte(-0.0041960863 * l - 0.7034186147 * m + 1.7076147010 * s)];
}

/** color-mix(in oklab, a p, b) of two sRGB colours ([r, g, b], 0..255), p in 0..1. */
export function mixOklab(a, b, p) {
  const x = labOf(a);
  const y = labOf(b);
  return srgb(p * x[0] + (1 - p) * y[0], p * x[1] + (1 - p) * y[1], p * x[2] + (1 - p) * y[2]);
}
// A theme mixes its same two or three colours at every share: each is
// converted to OKLab once (kept by the array, which the theme keeps).
const labs = new WeakMap(); // [r, g, b] -> its OKLab
function labOf(rgb) {
  let lab = labs.get(rgb);
  if (!lab) labs.set(rgb, lab = oklab(rgb));
  return lab;
}

/** Relative luminance (WCAG) of an sRGB colour given as [r, g, b] in 0..255. */
export function luminance([r, g, b]) {
  const lin = (c) => {
    const v = c / 255;
    return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** WCAG contrast ratio of two sRGB colours (1 to 21). */
export function contrast(a, b) {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * The label colour for text on a cell of colour `rgb`: black or white,
 * whichever contrasts more. One of the two always reaches at least 4.58:1.
 */
export const labelFor = (rgb) => {
  let ink = inks.get(rgb);
  if (!ink) inks.set(rgb, ink = contrast(rgb, [0, 0, 0]) >= contrast(rgb, [255, 255, 255]) ? '#000000' : '#ffffff');
  return ink;
};
const inks = new WeakMap(); // [r, g, b] (rgbColor's, kept) -> its label colour

/** Largest |value| of some numbers (1 when all are zero), the default full scale. */
export function maxAbs(values) {
  let m = 0;
  for (const v of values) m = Math.max(m, Math.abs(v));
  return m || 1;
}
