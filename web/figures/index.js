// index.js: the figures bundle (dist/attention-figures.js). Importing it
// defines every figure element of the registry; the wasm is looked up next
// to the bundle.
import { setWasmBase } from '../kit/engine.js';
import { FIGURES } from './registry.js';

setWasmBase(new URL('./', import.meta.url));

export { engine } from '../kit/engine.js';
export { typeset } from '../kit/math.js';

await Promise.all(FIGURES.map((f) => f.load()));
