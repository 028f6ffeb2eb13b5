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

/** The CSS colour for value v: the neutral colour mixed with the sign's hue. */
export function cssColor(v, max = 1) {
  const { hue, vibrancy } = colorOf(v, max);
  if (hue === 'zero') return 'var(--attention-zero)';
  const p = Math.round(vibrancy * 1000) / 10;
  return `color-mix(in oklab, var(--attention-${hue}) ${p}%, var(--attention-zero))`;
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
export const labelFor = (rgb) => (contrast(rgb, [0, 0, 0]) >= contrast(rgb, [255, 255, 255]) ? '#000000' : '#ffffff');

/** Largest |value| of some numbers (1 when all are zero), the default full scale. */
export function maxAbs(values) {
  let m = 0;
  for (const v of values) m = Math.max(m, Math.abs(v));
  return m || 1;
}
