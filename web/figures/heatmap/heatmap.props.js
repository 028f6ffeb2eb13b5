// heatmap.props.js: the attributes of <attention-heatmap> (props.js says how
// they are read): src="weights.json" (a page's own origin only), layer="1..",
// off="1.2,2.3" (layer.head pairs switched off), token="-1.." (query whose lines show).
import { LIMITS } from './heatmap.model.js';

/** The canonical off attribute: distinct "layer.head" pairs (both from 1), sorted; null when text names none. */
export function normalizeOff(text) {
  const parts = String(text ?? '').split(',').map((t) => t.trim()).filter(Boolean);
  const pairs = parts.filter((t) => /^[1-9]\d{0,3}\.[1-9]\d{0,3}$/.test(t));
  return pairs.length || !parts.length ? [...new Set(pairs)].sort().join(',') : null;
}

export const props = {
  src: { type: 'string', default: '' },
  layer: { type: 'number', default: 1, min: 1, max: 1024, integer: true },
  off: { type: 'string', default: '', normalize: normalizeOff },
  token: { type: 'number', default: -1, min: -1, max: LIMITS.tokens, integer: true },
};
