// susan-mary.props.js: the attributes of <attention-susan-mary> (props.js
// says how they are read): order="susan-mary|mary-susan", positions="true|false".
import { ORDERS } from './susan-mary.model.js';

export const props = {
  order: { type: 'enum', values: Object.keys(ORDERS), default: 'susan-mary' },
  positions: { type: 'boolean', default: false },
};
