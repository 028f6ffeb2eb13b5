// matrix.props.js: the attributes of <attention-matrix> (props.js says how
// they are read): step (1..6), pixel (index into the picture).
import { SIDE } from './matrix.model.js';

export const props = {
  step: { type: 'number', default: 6, min: 1, max: 6, integer: true },
  pixel: { type: 'number', default: 2 * SIDE + 9, min: 0, max: SIDE * SIDE - 1, integer: true },
};
