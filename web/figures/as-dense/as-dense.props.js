// as-dense.props.js: the attributes of <attention-as-dense> (props.js says how
// they are read): x="x1,x2,x3,x4" (each -2..2), seed="1..999" (the dense weights).
import { N } from './as-dense.model.js';

export const DEFAULT_X = [1, -0.5, 0.8, 0.2];
/** "x1,...,xN" -> N numbers in [-2, 2] (two decimals), or null. */
export function readX(text) {
  const v = String(text ?? '').split(',').map((t) => (t.trim() === '' ? NaN : Number(t)));
  return v.length === N && v.every((x) => Number.isFinite(x) && Math.abs(x) <= 2) ? v.map((x) => +x.toFixed(2)) : null;
}
/** readX, or the default inputs. */
export const parseX = (text) => readX(text) ?? DEFAULT_X.slice();

export const props = {
  x: { type: 'string', default: DEFAULT_X.join(','), normalize: (t) => readX(t)?.join(',') ?? null },
  seed: { type: 'number', default: 1, min: 1, max: 999, integer: true },
};
