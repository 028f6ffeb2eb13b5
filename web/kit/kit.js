// kit.js: dist/chunks/kit.js, what dist/attention-figures.js exports beside
// the figures: the shared engine and the typesetter (engine(), typeset()).
// It reaches the same modules every figure does (through figure-element.js),
// so in the bundle (scripts/bundle.mjs) it shares the figures' one common
// chunk instead of splitting it by who imports what.
import './figure-element.js';

export { engine } from './engine.js';
export { typeset } from './math.js';
