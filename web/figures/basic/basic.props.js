// basic.props.js: the attributes of <attention-basic> (props.js says how they
// are read): pixel="red|orange|blue|teal", x="r,g,b;r,g,b;r,g,b;r,g,b".
import { readInputs, NAMES } from './basic.model.js';

export const props = {
  pixel: { type: 'enum', values: NAMES, default: 'orange' },
  x: { type: 'string', default: '', normalize: readInputs },
};
