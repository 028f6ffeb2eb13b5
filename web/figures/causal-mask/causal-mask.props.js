// causal-mask.props.js: the attributes of <attention-causal-mask> (props.js
// says how they are read): preset="none|causal|padding|causal+padding|window|custom",
// cells="0101..." (n*n, 1 = blocked; used with preset=custom), step="1..n".
import { readCells, PRESETS, TOKENS, MAX_TOKENS } from './causal-mask.model.js';

export const props = {
  preset: { type: 'enum', values: PRESETS, default: 'causal' },
  cells: { type: 'string', default: '', normalize: readCells },
  step: { type: 'number', default: TOKENS.length, min: 1, max: MAX_TOKENS, integer: true },
};
