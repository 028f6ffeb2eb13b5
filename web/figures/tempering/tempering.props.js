// tempering.props.js: the attributes of <attention-tempering> (props.js says
// how they are read): dk="1..512", tau="0.01..100" (extra temperature).
import { MAX_DK } from './tempering.model.js';

export const props = {
  dk: { type: 'number', default: 64, min: 1, max: MAX_DK, integer: true },
  tau: { type: 'number', default: 1, min: 0.01, max: 100 },
};
