// cost.props.js: the attributes of <attention-cost> (props.js says how they
// are read): n="1024..65536" (largest N), d="16|32|64", budget="5..120" (seconds).
export const props = {
  n: { type: 'number', default: 16384, min: 1024, max: 65536, snap: (v) => 2 ** Math.round(Math.log2(v)) },
  d: { type: 'enum', values: ['16', '32', '64'], default: '32' },
  budget: { type: 'number', default: 30, min: 5, max: 120 },
};
