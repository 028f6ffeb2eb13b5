// as-conv.props.js: the attributes of <attention-as-conv> (props.js says how
// they are read): temperature="0.001..10", k="3|5", signal="spike|step|bumps",
// kernel="w1,w2,..." (k numbers in [-1, 1]; empty: the default kernel).
export const SIGNALS = {
  spike: [0, 0, 0, 1, 0, 0, 0, 0],
  step: [0, 0, 0, 0, 1, 1, 1, 1],
  bumps: [0.2, 0.8, -0.4, 0.5, 1, -0.6, 0.1, 0.3],
};
export const KERNELS = { 3: [-1, 0, 1], 5: [0.1, 0.2, 0.4, 0.2, 0.1] };

/** The canonical kernel attribute: k numbers in [-1, 1] for a size k offered, '' for '', else null. */
export function readKernel(text) {
  if (String(text ?? '').trim() === '') return '';
  const v = String(text).split(',').map((t) => (t.trim() === '' ? NaN : Number(t)));
  return KERNELS[v.length] && v.every((x) => Number.isFinite(x) && Math.abs(x) <= 1) ? v.map((x) => +x.toFixed(2)).join(',') : null;
}
/** The kernel of size k the attribute holds, else the default one. */
export function parseKernel(text, k) {
  const t = readKernel(text);
  return t && t.split(',').length === k ? t.split(',').map(Number) : KERNELS[k].slice();
}

export const props = {
  temperature: { type: 'number', default: 0.01, min: 0.001, max: 10 },
  k: { type: 'enum', values: ['3', '5'], default: '3' },
  signal: { type: 'enum', values: Object.keys(SIGNALS), default: 'bumps' },
  kernel: { type: 'string', default: '', normalize: readKernel },
};
