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
/** An integer with commas between thousands (16384 -> "16,384"), as toLocaleString('en-US') has it without loading the locale's data: a phone's first toLocaleString costs ~100 ms. */
export const grouped = (n) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

export const pct = (w) => `${Math.round(w * 100)}%`;

/**
 * A row of weights that sum to 1, rounded to `digits` decimals so that the
 * printed numbers also add up to 1 where that is possible without making two
 * equal weights look different: the values whose dropped remainders are
 * largest are rounded up (largest remainder), a group of equal weights
 * only as a whole. Each printed value stays within one unit of its last digit.
 */
export function roundShares(weights, digits = 2) {
  const unit = 10 ** digits;
  const scaled = Array.from(weights, (w) => w * unit); // a plain array: a typed array's map could not hold the pairs below
  const out = scaled.map(Math.floor);
  let missing = Math.round(unit * weights.reduce((a, b) => a + b, 0)) - out.reduce((a, b) => a + b, 0);
  const order = scaled.map((v, i) => [v - out[i], i]).sort((a, b) => b[0] - a[0]);
  for (let k = 0; k < order.length && missing > 0;) {
    let end = k;
    while (end < order.length && Math.abs(weights[order[end][1]] - weights[order[k][1]]) < 1e-7) end++; // equal weights (float32 eps)
    if (end - k > missing) break;
    for (let g = k; g < end; g++) out[order[g][1]]++;
    missing -= end - k;
    k = end;
  }
  // what largest remainder could not place without breaking a tie: plain rounding
  if (missing !== 0) return Array.from(weights, (w) => Math.round(w * unit) / unit);
  return out.map((v) => v / unit);
}

/** Percentages of a row of weights (see roundShares), as text. */
export const pcts = (weights) => roundShares(weights, 2).map((w) => `${Math.round(w * 100)}%`);

/**
 * Indices of the largest value as printed: every entry whose printed text
 * equals the largest one's. More than one means a tie, and no winner may be named.
 */
export function leaders(values, printed) {
  let best = 0;
  values.forEach((v, i) => { if (v > values[best]) best = i; });
  return values.map((_, i) => i).filter((i) => printed[i] === printed[best]);
}

/** "a", "a and b", "a, b and c"; in Chinese (lang 'zh') "a、b和c". */
export function list(words, lang = 'en') {
  if (words.length < 2) return words.join('');
  return lang === 'zh' ? `${words.slice(0, -1).join('、')}和${words.at(-1)}` : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}

/** "1 token", "3 tokens". */
export const count = (n, noun, plural = `${noun}s`) => `${n} ${n === 1 ? noun : plural}`;

/** Parse a numeric attribute; fall back when missing or not a finite number. */
export function attrNumber(value, fallback, min = -Infinity, max = Infinity) {
  const v = value === null || value === undefined || String(value).trim() === '' ? NaN : Number(value);
  return Number.isFinite(v) ? Math.min(max, Math.max(min, v)) : fallback;
}

/** A difference that may be tiny: "0", "6e-8" or "0.125". */
export const gap = (v) => (v === 0 ? '0' : Math.abs(v) < 1e-3 ? v.toExponential(0) : num(v, 3));

/** How two results computed in float32 compare, as a key of figure.strings.en.js: 'identical', 'identicalRounding' or 'different'. */
export const sameness = (difference, tolerance = 1e-5) =>
  (difference === 0 ? 'identical' : difference < tolerance ? 'identicalRounding' : 'different');
