// efficient.props.js: the attributes of <attention-efficient> (props.js says
// how they are read): window="0..12", global="0,5" (global token positions,
// from 0; parts that name no token are left out), features="4..1024" (a
// power of 2), n="2048..65536" (largest N of the sweep, a power of 2),
// budget="5..120" (s).
import { readGlobal } from './efficient.model.js';

const power2 = (lo, hi) => (v) => Math.min(hi, Math.max(lo, 2 ** Math.round(Math.log2(v))));
// the positions the text names; null when it names none but is not empty
function normalizeGlobal(text) {
  const { positions, ignored } = readGlobal(text);
  return positions.length || !ignored.length ? positions.join(',') : null;
}

export const props = {
  window: { type: 'number', default: 3, min: 0, max: 12, integer: true },
  global: { type: 'string', default: '0', normalize: normalizeGlobal },
  features: { type: 'number', default: 64, min: 4, max: 1024, snap: power2(4, 1024) },
  n: { type: 'number', default: 16384, min: 2048, max: 65536, snap: power2(2048, 65536) },
  budget: { type: 'number', default: 20, min: 5, max: 120 },
};
