// dot-product.props.js: the attributes of <attention-dot-product> (props.js
// says how they are read): user="a,r,c" and movie="a,r,c", each -1..1.
import { DEFAULT_USER, DEFAULT_MOVIE } from './dot-product.model.js';

/** "a,r,c" -> three numbers clamped to [-1, 1] (two decimals), or null when it is not three numbers. */
export function readTriple(text) {
  const v = String(text ?? '').split(',').map((t) => (t.trim() === '' ? NaN : Number(t)));
  return v.length === 3 && v.every(Number.isFinite) ? v.map((x) => +Math.max(-1, Math.min(1, x)).toFixed(2)) : null;
}
/** readTriple, or `fallback` for text that is not three numbers. */
export const parseTriple = (text, fallback) => readTriple(text) ?? fallback.slice();
const triple = (fallback) => ({ type: 'string', default: fallback.join(','), normalize: (t) => readTriple(t)?.join(',') ?? null });

export const props = { user: triple(DEFAULT_USER), movie: triple(DEFAULT_MOVIE) };
