// tiny-gpt.props.js: the attributes of <attention-tiny-gpt> (props.js says
// how they are read): steps="100..5000" (the budget), seed="0..", prompt
// (what the decodings continue), text (what the attention maps read),
// layer="1|2", head="1..4", at="0.." (the character whose attention is
// shown, from 1 in what the model reads; 0: the last).
import { DEFAULTS } from './tiny-gpt.model.js';

const clip = (n) => (text) => [...text].slice(0, n).join(''); // at most n characters
/** "1", "2", ... "n": the choices of a layer or a head. */
export const numbers = (n) => Array.from({ length: n }, (_, k) => String(k + 1));

export const props = {
  steps: { type: 'number', default: DEFAULTS.steps, min: 100, max: 5000, integer: true },
  seed: { type: 'number', default: DEFAULTS.seed, min: 0, max: 2 ** 31, integer: true },
  prompt: { type: 'string', default: DEFAULTS.prompt, normalize: clip(60) },
  text: { type: 'string', default: DEFAULTS.reading, normalize: clip(200) },
  layer: { type: 'enum', values: numbers(DEFAULTS.layers), default: '1' },
  head: { type: 'enum', values: numbers(DEFAULTS.heads), default: '1' },
  at: { type: 'number', default: 0, min: 0, max: 200, integer: true },
};
