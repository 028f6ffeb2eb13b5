// bad-input.test.js: the table of bad inputs (issue 5, item 1). Each row is
// one call with one thing wrong, the error class it must throw and a regex
// the message must match: the message names the argument (and usually what
// was expected). A few rows are valid edge cases with a documented result
// instead. After every row, in both builds: memoryInUse() is back where it
// was and the module still computes a correct attention.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { assertClose, attentionBound, forEachBuild, ref } from './helpers.js';

const I2 = [[1, 0], [0, 1]];
const M22 = (data) => ({ rows: 2, cols: 2, data });
const big = (rows, cols) => ({ rows, cols, data: new Float32Array(rows * cols) }); // zeros, no JS loop
// A valid multi-head configuration with d_model = 4.
const W4 = [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]];
const X4 = [[1, 2, 3, 4], [4, 3, 2, 1], [0, 1, 0, 1]];
const MHA = { heads: 2, Wq: W4, Wk: W4, Wv: W4, Wo: W4 };
const mha = (a, patch, Xq = X4, Xkv = null) => a.multiHeadAttention(Xq, Xkv, { ...MHA, ...patch });
const att = (a, opts, Q = I2, K = I2, V = I2) => a.attention(Q, K, V, opts);

// [function, what is wrong, call, error class, message must match]
const THROWS = [
  // ---- matrix(rows, cols, data)
  ['matrix', 'rows missing', (a) => a.matrix(), TypeError, /\brows must be a number/],
  ['matrix', 'rows a string', (a) => a.matrix('2', 2), TypeError, /\brows must be a number, got string/],
  ['matrix', 'rows 0 (zero-size)', (a) => a.matrix(0, 2), RangeError, /\brows must be a positive integer, got 0/],
  ['matrix', 'rows negative', (a) => a.matrix(-1, 2), RangeError, /\brows must be a positive integer, got -1/],
  ['matrix', 'rows fractional', (a) => a.matrix(1.5, 2), RangeError, /\brows must be a positive integer, got 1.5/],
  ['matrix', 'cols NaN', (a) => a.matrix(2, NaN), RangeError, /\bcols must be a positive integer, got NaN/],
  ['matrix', 'cols Infinity', (a) => a.matrix(2, Infinity), RangeError, /\bcols must be a positive integer/],
  ['matrix', 'data shorter than rows*cols', (a) => a.matrix(2, 2, [1, 2, 3]), RangeError, /matrix\.data has 3 values, expected rows\*cols = 2\*2 = 4/],
  ['matrix', 'data longer than rows*cols', (a) => a.matrix(2, 2, [1, 2, 3, 4, 5]), RangeError, /matrix\.data has 5 values/],
  ['matrix', 'data a string', (a) => a.matrix(2, 2, '1234'), TypeError, /matrix\.data must be/],
  ['matrix', 'data non-numeric', (a) => a.matrix(2, 2, [1, 2, 3, '4']), TypeError, /matrix has a non-number \(string\) at row 1, column 1/],
  ['matrix', 'data NaN', (a) => a.matrix(2, 2, [1, NaN, 3, 4]), RangeError, /matrix\.data has NaN at row 0, column 1/],
  ['matrix', 'data +Infinity', (a) => a.matrix(2, 2, [1, 2, Infinity, 4]), RangeError, /matrix\.data has Infinity at row 1, column 0/],
  ['matrix', 'rows*cols too large for wasm memory', (a) => a.matrix(1e6, 1e6), RangeError, /rows\*cols = 1000000\*1000000/],

  // ---- matmul(A, B, {transposeB})
  ['matmul', 'A missing', (a) => a.matmul(undefined, I2), TypeError, /\bA must be a matrix/],
  ['matmul', 'B null', (a) => a.matmul(I2, null), TypeError, /\bB must be a matrix/],
  ['matmul', 'A a flat array', (a) => a.matmul([1, 2], I2), TypeError, /\bA must be an array of rows/],
  ['matmul', 'A zero rows', (a) => a.matmul([], I2), RangeError, /\bA must have at least one row/],
  ['matmul', 'A zero columns', (a) => a.matmul([[]], I2), RangeError, /\bA must have at least one column/],
  ['matmul', 'A ragged rows', (a) => a.matmul([[1, 2], [3]], I2), RangeError, /\bA row 1 has 1 values, expected 2/],
  // eslint-disable-next-line no-sparse-arrays
  ['matmul', 'A a sparse array of rows', (a) => a.matmul([[1, 0], , [0, 1]], I2), TypeError, /\bA must be an array of rows.*row 1 is missing/],
  ['matmul', 'A.data shorter', (a) => a.matmul(M22([1, 2, 3]), I2), RangeError, /\bA\.data has 3 values, expected rows\*cols = 2\*2 = 4/],
  ['matmul', 'A.data longer', (a) => a.matmul(M22(new Float32Array(5)), I2), RangeError, /\bA\.data has 5 values/],
  ['matmul', 'A.rows negative', (a) => a.matmul({ rows: -2, cols: 2, data: [1, 2, 3, 4] }, I2), RangeError, /\bA\.rows must be a positive integer/],
  ['matmul', 'A.cols fractional', (a) => a.matmul({ rows: 2, cols: 2.5, data: [1, 2, 3, 4, 5] }, I2), RangeError, /\bA\.cols must be a positive integer, got 2.5/],
  ['matmul', 'A.rows a string', (a) => a.matmul({ rows: '2', cols: 2, data: [1, 2, 3, 4] }, I2), TypeError, /\bA\.rows must be a number/],
  ['matmul', 'A.rows 0 (zero-size)', (a) => a.matmul({ rows: 0, cols: 2, data: [] }, I2), RangeError, /\bA\.rows must be a positive integer, got 0/],
  ['matmul', 'A.data a string', (a) => a.matmul(M22('1234'), I2), TypeError, /\bA\.data must be a Float32Array or an array of numbers/],
  ['matmul', 'A.data a DataView', (a) => a.matmul(M22(new DataView(new ArrayBuffer(16))), I2), TypeError, /\bA\.data must be/],
  ['matmul', 'A non-numeric', (a) => a.matmul([[1, 'x'], [0, 1]], I2), TypeError, /\bA has a non-number \(string\) at row 0, column 1/],
  ['matmul', 'A holds null', (a) => a.matmul(M22([1, 2, null, 4]), I2), TypeError, /\bA has a non-number \(object\) at row 1, column 0/],
  ['matmul', 'A a BigInt64Array', (a) => a.matmul(M22(new BigInt64Array(4)), I2), TypeError, /\bA has a non-number \(bigint\)/],
  ['matmul', 'A NaN', (a) => a.matmul([[1, NaN], [0, 1]], I2), RangeError, /\bA has NaN at row 0, column 1/],
  ['matmul', 'B +Infinity', (a) => a.matmul(I2, [[1, 0], [Infinity, 1]]), RangeError, /\bB has Infinity at row 1, column 0/],
  ['matmul', 'B -Infinity (only masks may hold it)', (a) => a.matmul(I2, [[1, -Infinity], [0, 1]]), RangeError, /\bB has -Infinity at row 0, column 1/],
  ['matmul', 'A finite in float64 but not in float32', (a) => a.matmul([[1e39, 0], [0, 1]], I2), RangeError, /\bA has Infinity at row 0, column 0; values must be finite/],
  ['matmul', 'shapes do not chain', (a) => a.matmul([[1, 2, 3]], I2), RangeError, /\bA is 1x3 and B is 2x2: A\.cols must equal B\.rows/],
  ['matmul', 'shapes do not chain (transposeB)', (a) => a.matmul([[1, 2, 3]], [[1, 2]], { transposeB: true }), RangeError, /A\.cols must equal B\.cols \(transposeB\)/],
  ['matmul', 'transposeB not a boolean', (a) => a.matmul(I2, I2, { transposeB: 1 }), TypeError, /\btransposeB must be true or false, got 1/],
  ['matmul', 'into of another shape', (a) => a.matmul(I2, I2, { into: { rows: 2, cols: 3, data: new Float32Array(6) } }), RangeError, /\binto must be a 2x2 matrix with Float32Array data/],
  ['matmul', 'into with plain-array data', (a) => a.matmul(I2, I2, { into: { rows: 2, cols: 2, data: [0, 0, 0, 0] } }), TypeError, /\binto must be a 2x2 matrix with Float32Array data/],
  ['matmul', 'options a string', (a) => a.matmul(I2, I2, 'transpose'), TypeError, /\bmatmul options must be an object/],
  ['matmul', 'options an array', (a) => a.matmul(I2, I2, [true]), TypeError, /\bmatmul options must be an object/],
  ['matmul', 'options null', (a) => a.matmul(I2, I2, null), TypeError, /\bmatmul options must be an object/],
  ['matmul', 'result too large for wasm memory', (a) => a.matmul(big(300000, 1), big(1, 300000)), RangeError, /\bmatmul needs 335\.\d GiB of wasm memory; the limit is 2 GiB/],

  // ---- softmax(M, {temperature})
  ['softmax', 'M missing', (a) => a.softmax(), TypeError, /\bM must be a matrix/],
  ['softmax', 'M a number', (a) => a.softmax(3), TypeError, /\bM must be a matrix/],
  ['softmax', 'M NaN', (a) => a.softmax([[0, NaN]]), RangeError, /\bM has NaN at row 0, column 1; values must be finite or -Infinity/],
  ['softmax', 'M +Infinity', (a) => a.softmax([[Infinity, 0]]), RangeError, /\bM has Infinity at row 0, column 0/],
  ['softmax', 'M.data shorter', (a) => a.softmax({ rows: 2, cols: 3, data: [1, 2, 3] }), RangeError, /\bM\.data has 3 values, expected rows\*cols = 2\*3 = 6/],
  ['softmax', 'M.cols negative', (a) => a.softmax({ rows: 1, cols: -3, data: [1, 2, 3] }), RangeError, /\bM\.cols must be a positive integer/],
  ['softmax', 'M non-numeric', (a) => a.softmax([[1, true]]), TypeError, /\bM has a non-number \(boolean\)/],
  ['softmax', 'temperature 0', (a) => a.softmax(I2, { temperature: 0 }), RangeError, /\btemperature must be finite and > 0, got 0/],
  ['softmax', 'temperature negative', (a) => a.softmax(I2, { temperature: -1 }), RangeError, /\btemperature must be finite and > 0/],
  ['softmax', 'temperature NaN', (a) => a.softmax(I2, { temperature: NaN }), RangeError, /\btemperature must be finite and > 0, got NaN/],
  ['softmax', 'temperature Infinity', (a) => a.softmax(I2, { temperature: Infinity }), RangeError, /\btemperature must be finite/],
  ['softmax', 'temperature a string', (a) => a.softmax(I2, { temperature: '2' }), TypeError, /\btemperature must be a number/],
  ['softmax', 'options a number', (a) => a.softmax(I2, 2), TypeError, /\bsoftmax options must be an object/],

  // ---- positionalEncoding(n, d)
  ['positionalEncoding', 'n missing', (a) => a.positionalEncoding(), TypeError, /\bn must be a number/],
  ['positionalEncoding', 'd missing', (a) => a.positionalEncoding(4), TypeError, /\bd must be a number, got undefined/],
  ['positionalEncoding', 'n 0 (zero-size)', (a) => a.positionalEncoding(0, 4), RangeError, /\bn must be a positive integer, got 0/],
  ['positionalEncoding', 'n negative', (a) => a.positionalEncoding(-3, 4), RangeError, /\bn must be a positive integer, got -3/],
  ['positionalEncoding', 'd fractional', (a) => a.positionalEncoding(3, 2.5), RangeError, /\bd must be a positive integer, got 2.5/],
  ['positionalEncoding', 'd NaN', (a) => a.positionalEncoding(3, NaN), RangeError, /\bd must be a positive integer, got NaN/],
  ['positionalEncoding', 'd a string', (a) => a.positionalEncoding(3, '4'), TypeError, /\bd must be a number, got string/],
  ['positionalEncoding', 'too large for wasm memory', (a) => a.positionalEncoding(1e6, 1e4), RangeError, /\bpositionalEncoding needs [\d.]+ GiB of wasm memory/],

  // ---- attention(Q, K, V, options)
  ['attention', 'Q missing', (a) => a.attention(), TypeError, /\bQ must be a matrix/],
  ['attention', 'V missing', (a) => a.attention(I2, I2), TypeError, /\bV must be a matrix/],
  ['attention', 'K narrower than Q', (a) => att(a, {}, I2, [[1], [0]]), RangeError, /\bK is 2x1, expected 2x2 \(keys need as many columns as the queries Q\)/],
  ['attention', 'V with fewer rows than K', (a) => att(a, {}, I2, I2, [[1, 0]]), RangeError, /\bV is 1x2, expected 2x2 \(one value row per key in K\)/],
  ['attention', 'Q.data shorter', (a) => att(a, {}, M22([1, 0, 0])), RangeError, /\bQ\.data has 3 values/],
  ['attention', 'K.data longer', (a) => att(a, {}, I2, M22([1, 0, 0, 1, 0])), RangeError, /\bK\.data has 5 values/],
  ['attention', 'V.rows fractional', (a) => att(a, {}, I2, I2, { rows: 2.5, cols: 2, data: [1, 0, 0, 1, 0] }), RangeError, /\bV\.rows must be a positive integer/],
  ['attention', 'Q zero rows', (a) => att(a, {}, []), RangeError, /\bQ must have at least one row/],
  ['attention', 'K zero columns', (a) => att(a, {}, I2, [[], []]), RangeError, /\bK must have at least one column/],
  ['attention', 'Q non-numeric', (a) => att(a, {}, [['1', 0], [0, 1]]), TypeError, /\bQ has a non-number \(string\) at row 0, column 0/],
  ['attention', 'Q NaN', (a) => att(a, {}, [[1, 0], [0, NaN]]), RangeError, /\bQ has NaN at row 1, column 1; values must be finite/],
  ['attention', 'K +Infinity', (a) => att(a, {}, I2, [[Infinity, 0], [0, 1]]), RangeError, /\bK has Infinity at row 0, column 0/],
  ['attention', 'V -Infinity', (a) => att(a, {}, I2, I2, [[1, 0], [-Infinity, 1]]), RangeError, /\bV has -Infinity at row 1, column 0/],
  ['attention', 'NaN late in a long input (SIMD scan tail)', (a) => {
    const Q = big(257, 3);
    Q.data[770] = NaN;
    return att(a, {}, Q, big(5, 3), big(5, 2));
  }, RangeError, /\bQ has NaN at row 256, column 2/],
  ['attention', 'scale 0', (a) => att(a, { scale: 0 }), RangeError, /\bscale must be finite and > 0, got 0/],
  ['attention', 'scale negative', (a) => att(a, { scale: -1 }), RangeError, /\bscale must be finite and > 0/],
  ['attention', 'scale NaN', (a) => att(a, { scale: NaN }), RangeError, /\bscale must be finite and > 0, got NaN/],
  ['attention', 'scale Infinity', (a) => att(a, { scale: Infinity }), RangeError, /\bscale must be finite/],
  ['attention', 'scale a string', (a) => att(a, { scale: '0.5' }), TypeError, /\bscale must be a number/],
  ['attention', 'mask of the wrong shape', (a) => att(a, { mask: [[0, 0, 0], [0, 0, 0]] }), RangeError, /\bmask is 2x3, expected 2x2 \(one additive term per query and key\)/],
  ['attention', 'mask one row short', (a) => att(a, { mask: [[0, 0]] }), RangeError, /\bmask is 1x2, expected 2x2/],
  ['attention', 'mask.data of the wrong length', (a) => att(a, { mask: M22([0, 0, 0]) }), RangeError, /\bmask\.data has 3 values/],
  ['attention', 'mask NaN', (a) => att(a, { mask: [[0, NaN], [0, 0]] }), RangeError, /\bmask has NaN at row 0, column 1; values must be finite or -Infinity/],
  ['attention', 'mask +Infinity', (a) => att(a, { mask: [[0, 0], [Infinity, 0]] }), RangeError, /\bmask has Infinity at row 1, column 0/],
  ['attention', 'mask a string', (a) => att(a, { mask: 'causal' }), TypeError, /\bmask must be a matrix/],
  ['attention', 'mask in the weights path, wrong shape', (a) => att(a, { mask: [[0], [0]], weights: false }), RangeError, /\bmask is 2x1, expected 2x2/],
  ['attention', 'into.output of another shape', (a) => att(a, { into: { output: { rows: 1, cols: 4, data: new Float32Array(4) } } }), RangeError, /\binto\.output must be a 2x2 matrix with Float32Array data/],
  ['attention', 'into.output.data an array', (a) => att(a, { weights: false, into: { output: M22([0, 0, 0, 0]) } }), TypeError, /\binto\.output must be a 2x2 matrix with Float32Array data/],
  ['attention', 'into without weights', (a) => att(a, { into: { output: M22(new Float32Array(4)), weights: null } }), TypeError, /\binto\.weights must be a 2x2 matrix/],
  ['attention', 'into a number', (a) => att(a, { into: 5 }), TypeError, /\binto\.output must be a 2x2 matrix/],
  ['attention', 'keyPaddingMask too short', (a) => att(a, { keyPaddingMask: [1] }), RangeError, /\bkeyPaddingMask has 1 flags, expected one per key \(2\)/],
  ['attention', 'keyPaddingMask too long', (a) => att(a, { keyPaddingMask: [0, 0, 0] }), RangeError, /\bkeyPaddingMask has 3 flags/],
  ['attention', 'keyPaddingMask flag 2', (a) => att(a, { keyPaddingMask: [2, 0] }), TypeError, /\bkeyPaddingMask\[0\] is 2; use 1\/true for padding, 0\/false to keep/],
  ['attention', 'keyPaddingMask flag 0.5', (a) => att(a, { keyPaddingMask: [0, 0.5] }), TypeError, /\bkeyPaddingMask\[1\] is 0\.5/],
  ['attention', 'keyPaddingMask flag NaN', (a) => att(a, { keyPaddingMask: [NaN, 0] }), TypeError, /\bkeyPaddingMask\[0\] is NaN/],
  ['attention', "keyPaddingMask flag '1'", (a) => att(a, { keyPaddingMask: ['1', 0] }), TypeError, /\bkeyPaddingMask\[0\] is 1/],
  ['attention', 'keyPaddingMask a string', (a) => att(a, { keyPaddingMask: '01' }), TypeError, /\bkeyPaddingMask must be an array of 2 flags/],
  ['attention', 'keyPaddingMask an object', (a) => att(a, { keyPaddingMask: { 0: 1, 1: 0 } }), TypeError, /\bkeyPaddingMask must be an array/],
  ['attention', 'causal 1', (a) => att(a, { causal: 1 }), TypeError, /\bcausal must be true or false, got 1/],
  ['attention', "causal 'yes'", (a) => att(a, { causal: 'yes' }), TypeError, /\bcausal must be true or false/],
  ['attention', "weights 'no'", (a) => att(a, { weights: 'no' }), TypeError, /\bweights must be true or false, got no/],
  ['attention', 'weights 0', (a) => att(a, { weights: 0 }), TypeError, /\bweights must be true or false, got 0/],
  ['attention', 'window negative', (a) => att(a, { window: -1 }), RangeError, /\bwindow must be an integer >= 0, got -1/],
  ['attention', 'window fractional', (a) => att(a, { window: 1.5 }), RangeError, /\bwindow must be an integer >= 0, got 1\.5/],
  ['attention', 'window NaN', (a) => att(a, { window: NaN, weights: false }), RangeError, /\bwindow must be an integer >= 0, got NaN/],
  ['attention', 'window Infinity', (a) => att(a, { window: Infinity }), RangeError, /\bwindow must be an integer >= 0, got Infinity/],
  ['attention', 'window a string', (a) => att(a, { window: '2' }), TypeError, /\bwindow must be a number/],
  ['attention', 'globalTokens without a window', (a) => att(a, { globalTokens: [0] }), TypeError, /\bglobalTokens needs a window/],
  ['attention', 'globalTokens a number', (a) => att(a, { window: 1, globalTokens: 0 }), TypeError, /\bglobalTokens must be an array of positions/],
  ['attention', 'globalTokens out of range', (a) => att(a, { window: 1, globalTokens: [0, 2] }), RangeError, /\bglobalTokens\[1\] is 2, expected an integer position in 0\.\.1/],
  ['attention', 'globalTokens negative', (a) => att(a, { window: 1, globalTokens: [-1] }), RangeError, /\bglobalTokens\[0\] is -1/],
  ['attention', 'globalTokens fractional', (a) => att(a, { window: 1, globalTokens: [0.5] }), RangeError, /\bglobalTokens\[0\] is 0\.5/],
  ['attention', 'globalTokens a string position', (a) => att(a, { window: 1, globalTokens: ['1'] }), TypeError, /\bglobalTokens\[0\] is string/],
  ['attention', 'globalTokens duplicated', (a) => att(a, { window: 1, globalTokens: [1, 0, 1] }), RangeError, /\bglobalTokens lists position 1 twice/],
  ['attention', 'options a string', (a) => a.attention(I2, I2, I2, 'causal'), TypeError, /\battention options must be an object/],
  ['attention', 'options a number', (a) => a.attention(I2, I2, I2, 1), TypeError, /\battention options must be an object/],
  ['attention', 'options an array (a mask in its place)', (a) => a.attention(I2, I2, I2, [[0, 0], [0, 0]]), TypeError, /\battention options must be an object/],
  ['attention', 'options null', (a) => a.attention(I2, I2, I2, null), TypeError, /\battention options must be an object/],

  // ---- linearAttention(Q, K, V, {features, seed, causal, scale}), randomFeatures(m, d, {seed})
  ['linearAttention', 'Q missing', (a) => a.linearAttention(), TypeError, /\bQ must be a matrix/],
  ['linearAttention', 'V with fewer rows than K', (a) => a.linearAttention(I2, I2, [[1, 0]]), RangeError, /\bV is 1x2, expected 2x2/],
  ['linearAttention', 'K NaN', (a) => a.linearAttention(I2, [[1, NaN], [0, 1]], I2), RangeError, /\bK has NaN at row 0, column 1/],
  ['linearAttention', 'features 0', (a) => a.linearAttention(I2, I2, I2, { features: 0 }), RangeError, /\bfeatures must be a positive integer, got 0/],
  ['linearAttention', 'features negative', (a) => a.linearAttention(I2, I2, I2, { features: -8 }), RangeError, /\bfeatures must be a positive integer, got -8/],
  ['linearAttention', 'features fractional', (a) => a.linearAttention(I2, I2, I2, { features: 2.5 }), RangeError, /\bfeatures must be a positive integer, got 2\.5/],
  ['linearAttention', 'features a string', (a) => a.linearAttention(I2, I2, I2, { features: '64' }), TypeError, /\bfeatures must be a number/],
  ['linearAttention', 'features too many for wasm memory', (a) => a.linearAttention(I2, I2, I2, { features: 1e9 }), RangeError, /\blinearAttention with 1000000000 features needs/],
  ['linearAttention', 'seed negative', (a) => a.linearAttention(I2, I2, I2, { seed: -1 }), RangeError, /\bseed must be an integer in 0 \.\. 2\^32 - 1, got -1/],
  ['linearAttention', 'seed 2^32', (a) => a.linearAttention(I2, I2, I2, { seed: 2 ** 32 }), RangeError, /\bseed must be an integer/],
  ['linearAttention', 'seed fractional', (a) => a.linearAttention(I2, I2, I2, { seed: 0.5 }), RangeError, /\bseed must be an integer/],
  ['linearAttention', 'seed a string', (a) => a.linearAttention(I2, I2, I2, { seed: '1' }), TypeError, /\bseed must be a number/],
  ['linearAttention', 'causal 1', (a) => a.linearAttention(I2, I2, I2, { causal: 1 }), TypeError, /\bcausal must be true or false, got 1/],
  ['linearAttention', 'scale 0', (a) => a.linearAttention(I2, I2, I2, { scale: 0 }), RangeError, /\bscale must be finite and > 0, got 0/],
  ['linearAttention', 'a mask (not supported)', (a) => a.linearAttention(I2, I2, I2, { mask: [[0, 0], [0, 0]] }), TypeError, /\blinearAttention takes no mask/],
  ['linearAttention', 'a window (not supported)', (a) => a.linearAttention(I2, I2, I2, { window: 1 }), TypeError, /\blinearAttention takes no window/],
  ['linearAttention', 'options a number', (a) => a.linearAttention(I2, I2, I2, 64), TypeError, /\blinearAttention options must be an object/],
  ['randomFeatures', 'm 0', (a) => a.randomFeatures(0, 2), RangeError, /\bfeatures must be a positive integer, got 0/],
  ['randomFeatures', 'd missing', (a) => a.randomFeatures(4), TypeError, /\bd must be a number/],
  ['randomFeatures', 'seed negative', (a) => a.randomFeatures(4, 2, { seed: -3 }), RangeError, /\bseed must be an integer/],

  // ---- multiHeadAttention(Xq, Xkv, options)
  ['multiHeadAttention', 'Xq missing', (a) => a.multiHeadAttention(undefined, null, MHA), TypeError, /\bXq must be a matrix/],
  ['multiHeadAttention', 'Xq NaN', (a) => mha(a, {}, [[1, 2, 3, NaN]]), RangeError, /\bXq has NaN at row 0, column 3/],
  ['multiHeadAttention', 'Xq.data shorter', (a) => mha(a, {}, { rows: 2, cols: 4, data: [1, 2, 3, 4] }), RangeError, /\bXq\.data has 4 values, expected rows\*cols = 2\*4 = 8/],
  ['multiHeadAttention', 'Xkv narrower than Xq', (a) => mha(a, {}, X4, [[1, 2, 3]]), RangeError, /\bXkv is 1x3, expected 1x4 \(keys and values come from rows as wide as Xq \(d_model\)\)/],
  ['multiHeadAttention', 'Xkv a string', (a) => mha(a, {}, X4, 'self'), TypeError, /\bXkv must be a matrix/],
  ['multiHeadAttention', 'Xkv -Infinity', (a) => mha(a, {}, X4, [[1, 2, -Infinity, 4]]), RangeError, /\bXkv has -Infinity at row 0, column 2/],
  ['multiHeadAttention', 'options missing', (a) => a.multiHeadAttention(X4), TypeError, /\bheads is required \(a positive integer that divides d_model\)/],
  ['multiHeadAttention', 'options a string', (a) => a.multiHeadAttention(X4, null, 'heads'), TypeError, /\bmultiHeadAttention options must be an object/],
  ['multiHeadAttention', 'heads missing', (a) => mha(a, { heads: undefined }), TypeError, /\bheads is required/],
  ['multiHeadAttention', 'heads 0', (a) => mha(a, { heads: 0 }), RangeError, /\bheads must be a positive integer, got 0/],
  ['multiHeadAttention', 'heads negative', (a) => mha(a, { heads: -2 }), RangeError, /\bheads must be a positive integer, got -2/],
  ['multiHeadAttention', 'heads fractional', (a) => mha(a, { heads: 1.5 }), RangeError, /\bheads must be a positive integer, got 1.5/],
  ['multiHeadAttention', 'heads NaN', (a) => mha(a, { heads: NaN }), RangeError, /\bheads must be a positive integer, got NaN/],
  ['multiHeadAttention', 'heads Infinity', (a) => mha(a, { heads: Infinity }), RangeError, /\bheads must be a positive integer/],
  ['multiHeadAttention', 'heads a string', (a) => mha(a, { heads: '2' }), TypeError, /\bheads must be a number, got string/],
  ['multiHeadAttention', 'heads does not divide d_model', (a) => mha(a, { heads: 3 }), RangeError, /\bheads \(3\) must divide d_model \(4\)/],
  ['multiHeadAttention', 'heads larger than d_model', (a) => mha(a, { heads: 8 }), RangeError, /\bheads \(8\) must divide d_model \(4\)/],
  ['multiHeadAttention', 'Wq missing', (a) => mha(a, { Wq: undefined }), TypeError, /\bWq is required \(4x4\)/],
  ['multiHeadAttention', 'Wv null', (a) => mha(a, { Wv: null }), TypeError, /\bWv must be a matrix/],
  ['multiHeadAttention', 'Wo of the wrong shape', (a) => mha(a, { Wo: I2 }), RangeError, /\bWo is 2x2, expected 4x4 \(d_model x d_model\)/],
  ['multiHeadAttention', 'Wk NaN', (a) => mha(a, { Wk: W4.map((r, i) => (i === 2 ? [0, 0, NaN, 0] : r)) }), RangeError, /\bWk has NaN at row 2, column 2/],
  ['multiHeadAttention', 'into.output of another shape', (a) => mha(a, { into: { output: big(2, 4), weights: null } }), RangeError, /\binto\.output must be a 3x4 matrix/],
  ['multiHeadAttention', 'into.weights not an array', (a) => mha(a, { into: { output: big(3, 4), weights: big(3, 3) } }), TypeError, /\binto\.weights must be an array of 2 matrices, one per head/],
  ['multiHeadAttention', 'into.weights for 1 head', (a) => mha(a, { into: { output: big(3, 4), weights: [big(3, 3)] } }), RangeError, /\binto\.weights must be an array of 2 matrices/],
  ['multiHeadAttention', 'into.weights[1] of another shape', (a) => mha(a, { into: { output: big(3, 4), weights: [big(3, 3), big(3, 2)] } }), RangeError, /\binto\.weights\[1\] must be a 3x3 matrix/],
  ['multiHeadAttention', 'into a number', (a) => mha(a, { weights: false, into: 5 }), TypeError, /\binto\.output must be a 3x4 matrix/],
  ['multiHeadAttention', 'Wq.data longer', (a) => mha(a, { Wq: { rows: 4, cols: 4, data: new Float32Array(17) } }), RangeError, /\bWq\.data has 17 values/],
  ['multiHeadAttention', 'bq too short', (a) => mha(a, { bq: [1, 2, 3] }), RangeError, /\bbq has 3 values, expected 4 \(one per column of d_model\)/],
  ['multiHeadAttention', 'bo NaN', (a) => mha(a, { bo: [0, NaN, 0, 0] }), RangeError, /\bbo has NaN at index 1/],
  ['multiHeadAttention', 'bv +Infinity', (a) => mha(a, { bv: new Float32Array([0, 0, 0, Infinity]) }), RangeError, /\bbv has Infinity at index 3/],
  ['multiHeadAttention', 'bk a string', (a) => mha(a, { bk: '0000' }), TypeError, /\bbk must be an array of 4 numbers/],
  ['multiHeadAttention', 'bk non-numeric', (a) => mha(a, { bk: [0, 0, 'x', 0] }), TypeError, /\bbk has a non-number \(string\)/],
  ['multiHeadAttention', 'mask of the wrong shape', (a) => mha(a, { mask: [[0, 0, 0]] }), RangeError, /\bmask is 1x3, expected 3x3/],
  ['multiHeadAttention', 'mask NaN', (a) => mha(a, { mask: [[0, 0, 0], [0, NaN, 0], [0, 0, 0]] }), RangeError, /\bmask has NaN at row 1, column 1/],
  ['multiHeadAttention', 'keyPaddingMask of the wrong length (cross)', (a) => mha(a, { keyPaddingMask: [0, 1, 0] }, X4, [[1, 1, 1, 1], [2, 2, 2, 2]]), RangeError, /\bkeyPaddingMask has 3 flags, expected one per key \(2\)/],
  ['multiHeadAttention', 'keyPaddingMask flag -1', (a) => mha(a, { keyPaddingMask: [0, -1, 0] }), TypeError, /\bkeyPaddingMask\[1\] is -1/],
  ['multiHeadAttention', 'causal a string', (a) => mha(a, { causal: 'true' }), TypeError, /\bcausal must be true or false/],
  ['multiHeadAttention', 'weights 1', (a) => mha(a, { weights: 1 }), TypeError, /\bweights must be true or false, got 1/],
  ['multiHeadAttention', 'weights too large for wasm memory', (a) => a.multiHeadAttention(big(300000, 1), null, { heads: 1, Wq: [[1]], Wk: [[1]], Wv: [[1]], Wo: [[1]] }),
    RangeError, /\bmultiHeadAttention with 300000 queries, 300000 keys and 1 heads needs [\d.]+ GiB of wasm memory.*weights: false/],

  // ---- softmaxBackward(weights, dWeights, {temperature})
  ['softmaxBackward', 'weights missing', (a) => a.softmaxBackward(), TypeError, /\bweights must be a matrix/],
  ['softmaxBackward', 'dWeights missing', (a) => a.softmaxBackward(I2), TypeError, /\bdWeights must be a matrix/],
  ['softmaxBackward', 'dWeights of the wrong shape', (a) => a.softmaxBackward(I2, [[1, 0]]), RangeError, /\bdWeights is 1x2, expected 2x2 \(one gradient per weight\)/],
  ['softmaxBackward', 'weights NaN', (a) => a.softmaxBackward([[0.5, NaN], [0, 1]], I2), RangeError, /\bweights has NaN at row 0, column 1/],
  ['softmaxBackward', 'weights -Infinity (weights are probabilities)', (a) => a.softmaxBackward([[1, -Infinity], [0, 1]], I2), RangeError, /\bweights has -Infinity at row 0, column 1/],
  ['softmaxBackward', 'dWeights +Infinity', (a) => a.softmaxBackward(I2, [[0, 0], [Infinity, 0]]), RangeError, /\bdWeights has Infinity at row 1, column 0/],
  ['softmaxBackward', 'temperature 0', (a) => a.softmaxBackward(I2, I2, { temperature: 0 }), RangeError, /\btemperature must be finite and > 0, got 0/],
  ['softmaxBackward', 'options a string', (a) => a.softmaxBackward(I2, I2, 'T'), TypeError, /\bsoftmaxBackward options must be an object/],

  // ---- attentionBackward(Q, K, V, dOutput, options): the forward's checks, and dOutput
  ['attentionBackward', 'dOutput missing', (a) => a.attentionBackward(I2, I2, I2), TypeError, /\bdOutput must be a matrix/],
  ['attentionBackward', 'dOutput of the wrong shape', (a) => a.attentionBackward(I2, I2, I2, [[1, 0, 0], [0, 1, 0]]), RangeError, /\bdOutput is 2x3, expected 2x2 \(one gradient per output value: n_q x d_v\)/],
  ['attentionBackward', 'dOutput one row short', (a) => a.attentionBackward(I2, I2, I2, [[1, 0]]), RangeError, /\bdOutput is 1x2, expected 2x2/],
  ['attentionBackward', 'dOutput NaN', (a) => a.attentionBackward(I2, I2, I2, [[1, 0], [NaN, 0]]), RangeError, /\bdOutput has NaN at row 1, column 0/],
  ['attentionBackward', 'dOutput non-numeric', (a) => a.attentionBackward(I2, I2, I2, [[1, 0], [0, 'x']]), TypeError, /\bdOutput has a non-number \(string\) at row 1, column 1/],
  ['attentionBackward', 'K narrower than Q', (a) => a.attentionBackward(I2, [[1], [0]], I2, I2), RangeError, /\bK is 2x1, expected 2x2 \(keys need as many columns as the queries Q\)/],
  ['attentionBackward', 'V NaN', (a) => a.attentionBackward(I2, I2, [[1, 0], [0, NaN]], I2), RangeError, /\bV has NaN at row 1, column 1/],
  ['attentionBackward', 'scale 0', (a) => a.attentionBackward(I2, I2, I2, I2, { scale: 0 }), RangeError, /\bscale must be finite and > 0, got 0/],
  ['attentionBackward', 'mask of the wrong shape', (a) => a.attentionBackward(I2, I2, I2, I2, { mask: [[0, 0, 0]] }), RangeError, /\bmask is 1x3, expected 2x2/],
  ['attentionBackward', 'keyPaddingMask flag 2', (a) => a.attentionBackward(I2, I2, I2, I2, { keyPaddingMask: [0, 2] }), TypeError, /\bkeyPaddingMask\[1\] is 2/],
  ['attentionBackward', 'causal 1', (a) => a.attentionBackward(I2, I2, I2, I2, { causal: 1, weights: false }), TypeError, /\bcausal must be true or false, got 1/],
  ['attentionBackward', "weights 'no'", (a) => a.attentionBackward(I2, I2, I2, I2, { weights: 'no' }), TypeError, /\bweights must be true or false, got no/],
  ['attentionBackward', 'options a string', (a) => a.attentionBackward(I2, I2, I2, I2, 'causal'), TypeError, /\battentionBackward options must be an object/],
  ['attentionBackward', 'weights too large for wasm memory', (a) => a.attentionBackward(big(300000, 1), big(300000, 1), big(300000, 1), big(300000, 1)),
    RangeError, /\battentionBackward with 300000 queries and 300000 keys needs [\d.]+ GiB of wasm memory.*weights: false/],

  // ---- multiHeadAttentionBackward(Xq, Xkv, dY, options) and layer.backward
  ['multiHeadAttentionBackward', 'dY missing', (a) => a.multiHeadAttentionBackward(X4, null, undefined, MHA), TypeError, /\bdY must be a matrix/],
  ['multiHeadAttentionBackward', 'dY of the wrong shape', (a) => a.multiHeadAttentionBackward(X4, null, [[1, 2, 3], [1, 2, 3], [1, 2, 3]], MHA), RangeError, /\bdY is 3x3, expected 3x4 \(one gradient per output value: n_q x d_model\)/],
  ['multiHeadAttentionBackward', 'dY with the keys\' rows (cross)', (a) => a.multiHeadAttentionBackward(X4, [[1, 1, 1, 1]], [[1, 2, 3, 4]], MHA), RangeError, /\bdY is 1x4, expected 3x4/],
  ['multiHeadAttentionBackward', 'dY -Infinity', (a) => a.multiHeadAttentionBackward(X4, null, X4.map((r, i) => (i === 1 ? [0, -Infinity, 0, 0] : r)), MHA), RangeError, /\bdY has -Infinity at row 1, column 1/],
  ['multiHeadAttentionBackward', 'Xq NaN', (a) => a.multiHeadAttentionBackward([[1, 2, 3, NaN]], null, [[1, 2, 3, 4]], MHA), RangeError, /\bXq has NaN at row 0, column 3/],
  ['multiHeadAttentionBackward', 'heads does not divide d_model', (a) => a.multiHeadAttentionBackward(X4, null, X4, { ...MHA, heads: 3 }), RangeError, /\bheads \(3\) must divide d_model \(4\)/],
  ['multiHeadAttentionBackward', 'Wo of the wrong shape', (a) => a.multiHeadAttentionBackward(X4, null, X4, { ...MHA, Wo: I2 }), RangeError, /\bWo is 2x2, expected 4x4 \(d_model x d_model\)/],
  ['multiHeadAttentionBackward', 'bq too short', (a) => a.multiHeadAttentionBackward(X4, null, X4, { ...MHA, bq: [1, 2, 3] }), RangeError, /\bbq has 3 values, expected 4/],
  ['multiHeadAttentionBackward', 'options missing', (a) => a.multiHeadAttentionBackward(X4, null, X4), TypeError, /\bheads is required/],
  ['multiHeadAttentionBackward', 'options a string', (a) => a.multiHeadAttentionBackward(X4, null, X4, 'heads'), TypeError, /\bmultiHeadAttentionBackward options must be an object/],
  ['multiHeadAttentionBackward', 'weights 1', (a) => a.multiHeadAttentionBackward(X4, null, X4, { ...MHA, weights: 1 }), TypeError, /\bweights must be true or false, got 1/],
  ['layer.backward', 'dY of the wrong shape', (a) => {
    const layer = a.multiHeadAttentionLayer(MHA);
    try {
      return layer.backward(X4, null, I2);
    } finally {
      layer.dispose();
    }
  }, RangeError, /\bdY is 2x2, expected 3x4/],
  ['layer.backward', 'Xq narrower than the layer', (a) => {
    const layer = a.multiHeadAttentionLayer(MHA);
    try {
      return layer.backward(I2, null, I2);
    } finally {
      layer.dispose();
    }
  }, RangeError, /\bXq is 2x2, expected 2x4 \(rows as wide as the layer \(d_model\)\)/],
  ['layer.backward', 'after dispose()', (a) => {
    const layer = a.multiHeadAttentionLayer(MHA);
    layer.dispose();
    return layer.backward(X4, null, X4);
  }, Error, /\bdisposed\b/],
];

// Valid edge cases: [function, case, call, check(result)].
const DOCUMENTED = [
  ['matrix', '-Infinity is a valid value (masks)', (a) => a.matrix(1, 2, [0, -Infinity]), (r) => assert.deepEqual(Array.from(r.data), [0, -Infinity])],
  ['matmul', 'one element', (a) => a.matmul([[3]], [[-2]]), (r) => assert.deepEqual({ ...r, data: Array.from(r.data) }, { rows: 1, cols: 1, data: [-6] })],
  ['softmax', 'one element', (a) => a.softmax([[5]]), (r) => assert.deepEqual(Array.from(r.data), [1])],
  ['softmax', '-Infinity entries get weight 0', (a) => a.softmax([[0, -Infinity]]), (r) => assert.deepEqual(Array.from(r.data), [1, 0])],
  ['softmax', 'an all -Infinity row gives zeros', (a) => a.softmax([[-Infinity, -Infinity]]), (r) => assert.deepEqual(Array.from(r.data), [0, 0])],
  ['positionalEncoding', 'one element', (a) => a.positionalEncoding(1, 1), (r) => assert.deepEqual(Array.from(r.data), [0])],
  ['attention', 'one element', (a) => a.attention([[2]], [[3]], [[4]]), (r) => {
    assert.deepEqual(Array.from(r.output.data), [4]);
    assert.deepEqual(Array.from(r.weights.data), [1]);
  }],
  ['attention', 'one element, fused', (a) => a.attention([[2]], [[3]], [[4]], { weights: false }), (r) => assert.deepEqual(Array.from(r.output.data), [4])],
  ['attention', '-Infinity in the mask blocks a key', (a) => att(a, { mask: [[0, -Infinity], [-Infinity, 0]] }), (r) => assert.deepEqual(Array.from(r.weights.data), [1, 0, 0, 1])],
  ['attention', 'a float64 mask term below -FLT_MAX is -Infinity', (a) => att(a, { mask: [[0, -1e39], [0, 0]] }), (r) => assert.equal(r.weights.data[1], 0)],
  ['attention', 'all-masked rows: zero weights and output (additive)', (a) => att(a, { mask: [[-Infinity, -Infinity], [0, 0]] }), (r) => {
    assert.deepEqual(Array.from(r.weights.data.subarray(0, 2)), [0, 0]);
    assert.deepEqual(Array.from(r.output.data.subarray(0, 2)), [0, 0]);
  }],
  ['attention', 'all-masked rows: zeros (every key padding, fused)', (a) => att(a, { keyPaddingMask: [true, true], weights: false }), (r) => assert.deepEqual(Array.from(r.output.data), [0, 0, 0, 0])],
  ['attention', 'null mask and keyPaddingMask mean none', (a) => att(a, { mask: null, keyPaddingMask: null }), (r) => assert.equal(r.weights.rows, 2)],
  ['attention', 'fused path with 300,000 queries and keys passes the size check (memory O(N d))', (a) => {
    // Only the size check: the call itself would take minutes, so K has a
    // NaN at its very end, which the input scan reports after the size check.
    const K = big(300000, 1);
    K.data[299999] = NaN;
    return assert.throws(() => a.attention(big(300000, 1), K, big(300000, 1), { weights: false }), /\bK has NaN at row 299999/);
  }, () => {}],
  ['multiHeadAttention', 'one element (d_model 1, 1 head)', (a) => a.multiHeadAttention([[2]], null, { heads: 1, Wq: [[1]], Wk: [[1]], Wv: [[3]], Wo: [[2]], bo: [1] }), (r) => {
    assert.deepEqual(Array.from(r.output.data), [13]); // (2 * 3) * 2 + 1
    assert.deepEqual(Array.from(r.weights[0].data), [1]);
  }],
  ['softmaxBackward', 'one element: the gradient is 0', (a) => a.softmaxBackward([[1]], [[5]]), (r) => assert.deepEqual(Array.from(r.data), [0])],
  ['softmaxBackward', 'a zero weight passes no gradient (+0)', (a) => a.softmaxBackward([[1, 0]], [[1, -7]]), (r) => assert.ok(Object.is(r.data[1], 0))],
  ['attentionBackward', 'one key: the weight is always 1, so dQ = dK = 0 and dV = dOutput', (a) => a.attentionBackward([[2]], [[3]], [[4]], [[1.5]]), (r) => {
    assert.deepEqual([r.dQ.data[0], r.dK.data[0], r.dV.data[0]], [0, 0, 1.5]);
  }],
  ['attentionBackward', 'every key padded: zero gradients, never NaN (both paths)', (a) => [true, false].map((weights) => a.attentionBackward(I2, I2, I2, I2, { keyPaddingMask: [1, 1], weights })), (rs) => {
    for (const r of rs) for (const M of [r.dQ, r.dK, r.dV]) assert.deepEqual(Array.from(M.data), [0, 0, 0, 0]);
  }],
  ['multiHeadAttentionBackward', 'self-attention: dXkv is null, bias gradients returned without biases', (a) => a.multiHeadAttentionBackward(X4, null, X4, MHA), (r) => {
    assert.equal(r.dXkv, null);
    assert.deepEqual([r.dXq.rows, r.dXq.cols], [3, 4]);
    for (const b of [r.dbq, r.dbk, r.dbv, r.dbo]) assert.ok(b instanceof Float32Array && b.length === 4);
    assert.deepEqual(Array.from(r.dbo), [5, 6, 5, 6]); // column sums of dY = X4
  }],
  ['multiHeadAttention', 'all-masked rows: zero heads, output = bo', (a) => mha(a, { keyPaddingMask: [1, 1, 1], bo: [1, 2, 3, 4] }), (r) => {
    assert.deepEqual(Array.from(r.output.data), [1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4]);
    for (const Z of r.heads) assert.ok(Z.data.every((x) => x === 0));
  }],
];

// A small attention with known answer, run after every row.
const CHECK = {
  Q: [[0.5, -1, 2], [1, 0, 0]],
  K: [[1, 1, 0], [0, -1, 1], [2, 0, 0.25], [-1, 0.5, 0.5]],
  V: [[1, 2], [3, -4], [0.5, 0.5], [-2, 1]],
};
const CHECK_OPTIONS = { mask: [[0, -1, 0, -Infinity], [0.5, 0, 0, 0]] };
const CHECK_WANT = ref.attention(CHECK.Q, CHECK.K, CHECK.V, CHECK_OPTIONS);
const CHECK_BOUND = attentionBound(CHECK.Q, CHECK.K, CHECK.V, CHECK_OPTIONS, CHECK_WANT);

function stillWorks(attn, what) {
  for (const weights of [true, false]) {
    const r = attn.attention(CHECK.Q, CHECK.K, CHECK.V, { ...CHECK_OPTIONS, weights });
    assertClose(r.output, CHECK_WANT.output, CHECK_BOUND.output, `after ${what}: output (weights=${weights})`);
    if (weights) assertClose(r.weights, CHECK_WANT.weights, CHECK_BOUND.weights, `after ${what}: weights`);
  }
}

forEachBuild('bad inputs', (attn) => {
  for (const [fn, what, call, ErrorClass, names] of THROWS) {
    it(`${fn}: ${what} -> ${ErrorClass.name} ${names}`, () => {
      const before = attn.memoryInUse();
      assert.throws(() => call(attn), (e) => {
        assert.equal(e.constructor, ErrorClass, `${fn}: ${what}: threw ${e.constructor.name} (${e.message}), expected ${ErrorClass.name}`);
        assert.match(e.message, names, `${fn}: ${what}: the message should name the argument`);
        return true;
      });
      assert.equal(attn.memoryInUse(), before, `${fn}: ${what}: wasm memory left allocated after the throw`);
      stillWorks(attn, `${fn}: ${what}`);
    });
  }
});

forEachBuild('valid edge cases', (attn) => {
  for (const [fn, what, call, check] of DOCUMENTED) {
    it(`${fn}: ${what}`, () => {
      const before = attn.memoryInUse();
      check(call(attn));
      assert.equal(attn.memoryInUse(), before);
      stillWorks(attn, `${fn}: ${what}`);
    });
  }
});

forEachBuild('huge sizes', (attn) => {
  it('attention with weights on 300,000 queries and keys: RangeError at once, nothing allocated', () => {
    const before = attn.memoryInUse();
    const [Q, K, V] = [big(300000, 8), big(300000, 8), big(300000, 8)];
    const start = performance.now();
    assert.throws(() => attn.attention(Q, K, V), (e) => {
      assert.equal(e.constructor, RangeError);
      assert.match(e.message, /\battention with 300000 queries and 300000 keys needs 335\.\d GiB of wasm memory; the limit is 2 GiB.*weights: false/);
      return true;
    });
    const ms = performance.now() - start;
    // Not a benchmark: a guard against doing O(N^2) work (or allocating)
    // before the check. The check is O(1) here (Float32Array inputs are not
    // copied); anything proportional to N^2 = 9e10 would take minutes.
    assert.ok(ms < 1000, `the size check took ${ms.toFixed(0)} ms`);
    assert.equal(attn.memoryInUse(), before);
    stillWorks(attn, 'the huge attention');
  });
  it('the same with a mask on the fused path (the mask itself is N^2)', () => {
    // A mask object claiming 300000 x 300000 cannot hold its data; the size
    // is checked from Q and K before the mask is even read.
    const mask = { rows: 300000, cols: 300000, data: { length: 9e10 } };
    assert.throws(() => attn.attention(big(300000, 1), big(300000, 1), big(300000, 1), { weights: false, mask }),
      (e) => e instanceof RangeError && /\battention with 300000 queries and 300000 keys needs/.test(e.message));
    assert.equal(attn.memoryInUse(), 0);
  });
});

describe('the table covers every API function', () => {
  it('has throwing rows for each', () => {
    const fns = new Set(THROWS.map(([fn]) => fn));
    for (const fn of ['matrix', 'matmul', 'softmax', 'positionalEncoding', 'attention', 'multiHeadAttention',
      'softmaxBackward', 'attentionBackward', 'multiHeadAttentionBackward', 'layer.backward']) {
      assert.ok(fns.has(fn), `no bad-input row for ${fn}`);
    }
  });
});
