// cross.props.js: the attributes of <attention-cross> (props.js says how they
// are read): pair="en-fr|en-de|en-fr-short", temperature="0.02..3", word="0.."
// (the decoder word whose lines are highlighted).
import { PAIRS } from './cross.model.js';

export const props = {
  pair: { type: 'enum', values: Object.keys(PAIRS), default: 'en-fr' },
  temperature: { type: 'number', default: 0.2, min: 0.02, max: 3 },
  word: { type: 'number', default: 4, min: 0, max: 40, integer: true },
};
