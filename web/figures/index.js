// index.js: the figures bundle (dist/attention-figures.js). Importing it
// defines every figure element; the wasm is looked up next to the bundle.
import { setWasmBase } from './engine.js';

setWasmBase(new URL('./', import.meta.url));

export { engine } from './engine.js';
export { typeset } from './math.js';
import './notation.js';
import './dot-product.js';
import './qkv.js';
import './soft-dictionary.js';
import './matrix.js';
import './multi-head-it.js';
import './multi-head-matmul.js';
import './basic.js';
import './tempering.js';
import './susan-mary.js';
import './causal-mask.js';
import './as-dense.js';
import './as-conv.js';
import './cross.js';
import './cost.js';
import './efficient.js';
import './heatmap.js';
import './induction.js';
import './tiny-gpt.js';
