// qkv.props.js: the attributes of <attention-qkv> (props.js says how they are
// read): wq, wk, wv ("a,b,c;d,e,f;g,h,i", each -2..2; empty = the
// identity), cell ("q.1.1" .. "v.3.3", the weight the slider edits).
import { readWeight, CELLS } from './qkv.model.js';

const weightProp = { type: 'string', default: '', normalize: readWeight };

export const props = {
  wq: weightProp, wk: weightProp, wv: weightProp,
  cell: { type: 'enum', values: CELLS, default: CELLS[0] },
};
