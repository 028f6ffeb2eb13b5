// multi-head-matmul.props.js: the attributes of <attention-multi-head-matmul>
// (props.js says how they are read): heads (1, 2 or 4).
export const props = { heads: { type: 'enum', values: ['1', '2', '4'], default: '2' } };
