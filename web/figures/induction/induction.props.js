// induction.props.js: the attributes of <attention-induction> (props.js says
// how they are read): layers="1|2", steps="100..5000" (the budget), seed="0..".
import { DEFAULTS } from './induction.model.js';

export const props = {
  layers: { type: 'enum', values: ['1', '2'], default: '2' },
  steps: { type: 'number', default: DEFAULTS.steps, min: 100, max: 5000, integer: true },
  seed: { type: 'number', default: DEFAULTS.seed, min: 0, max: 2 ** 31, integer: true },
};
