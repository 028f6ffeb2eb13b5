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

/** Text that stays readable on top of cssColor(v, max). */
export const textOn = (v, max = 1) =>
  colorOf(v, max).vibrancy > 0.55 ? 'var(--attention-on-strong)' : 'var(--attention-fg)';

/** Largest |value| of some numbers (1 when all are zero), the default full scale. */
export function maxAbs(values) {
  let m = 0;
  for (const v of values) m = Math.max(m, Math.abs(v));
  return m || 1;
}
