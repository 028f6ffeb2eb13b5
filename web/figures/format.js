// format.js: how the figures print numbers (shared by models and views).

/** A signed number with `digits` decimals and a real minus sign. */
export function num(v, digits = 2) {
  const t = Math.abs(v) < 0.5 * 10 ** -digits ? (0).toFixed(digits) : v.toFixed(digits);
  return t.replace('-', '\u2212');
}

/** A byte count in B, KiB, MiB or GiB. */
export function bytes(b) {
  const units = ['B', 'KiB', 'MiB', 'GiB'];
  let k = 0;
  while (b >= 1024 && k < units.length - 1) { b /= 1024; k++; }
  return `${b < 10 && k ? b.toFixed(1) : Math.round(b)} ${units[k]}`;
}
/** A duration given in ms, as ms or s. */
export const millis = (ms) => (ms < 1 ? `${+ms.toFixed(2)} ms` : ms < 1000 ? `${ms.toFixed(ms < 10 ? 1 : 0)} ms` : `${+(ms / 1000).toFixed(2)} s`);

/** A weight in [0, 1] as a whole percentage. */
export const pct = (w) => `${Math.round(w * 100)}%`;

/** Parse a numeric attribute; fall back when missing or not a finite number. */
export function attrNumber(value, fallback, min = -Infinity, max = Infinity) {
  const v = value === null || value === undefined || value === '' ? NaN : Number(value);
  return Number.isFinite(v) ? Math.min(max, Math.max(min, v)) : fallback;
}

/** A difference that may be tiny: "0", "3e-7" or "0.125". */
export const gap = (v) => (v === 0 ? '0' : Math.abs(v) < 1e-3 ? v.toExponential(0) : num(v, 3));
