// notation.props.js: the attributes of <attention-notation> (props.js says how they are read).
export const props = { value: { type: 'number', default: 0.8, min: -1, max: 1 } };
