// index.js: the figures bundle (dist/attention-figures.js). Importing it
// defines every figure element; the wasm is looked up next to the bundle.
import { setWasmBase } from '../kit/engine.js';

setWasmBase(new URL('./', import.meta.url));

export { engine } from '../kit/engine.js';
export { typeset } from '../kit/math.js';
import './notation/notation.js';
import './dot-product/dot-product.js';
import './qkv/qkv.js';
import './soft-dictionary/soft-dictionary.js';
import './matrix/matrix.js';
import './multi-head-it/multi-head-it.js';
import './multi-head-matmul/multi-head-matmul.js';
import './basic/basic.js';
import './tempering/tempering.js';
import './susan-mary/susan-mary.js';
import './causal-mask/causal-mask.js';
import './as-dense/as-dense.js';
import './as-conv/as-conv.js';
import './cross/cross.js';
import './cost/cost.js';
import './efficient/efficient.js';
import './heatmap/heatmap.js';
import './induction/induction.js';
import './tiny-gpt/tiny-gpt.js';
