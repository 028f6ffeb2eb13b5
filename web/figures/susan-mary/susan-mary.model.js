// susan-mary.model.js: "Susan gave roses to Mary" against "Mary gave roses
// to Susan". Self-attention sees a set, not a sequence: swapping the two
// names swaps their outputs and leaves every other output exactly where it
// was, so y_gave cannot tell the giver from the receiver. Adding sinusoidal
// positional encodings to the inputs breaks that symmetry.
//
// Eight hand-set features per word (the names are alike, as the
// distributional hypothesis says they would be) and one attention head with
// fixed random projections: which projections does not matter, the symmetry
// holds for all of them.
import { fromRows, row, toRows } from '../../kit/mat.js';
import { normalMatrix } from '../../kit/random.js';

/** The features, as keys of susan-mary.strings.en.js. */
export const FEATURES = ['person', 'name1', 'name2', 'verb', 'thing', 'link', 'context1', 'context2'];
const VECTORS = {
  Susan: [1, 0.9, 0.3, 0, 0, 0, 0.2, 0],
  Mary: [1, 0.3, 0.9, 0, 0, 0, 0.2, 0],
  gave: [0, 0, 0, 1, 0, 0, 0.5, 0.3],
  roses: [0, 0, 0, 0, 1, 0, -0.3, 0.4],
  to: [0, 0, 0, 0, 0, 1, 0.1, -0.4],
};
export const ORDERS = {
  'susan-mary': ['Susan', 'gave', 'roses', 'to', 'Mary'],
  'mary-susan': ['Mary', 'gave', 'roses', 'to', 'Susan'],
};
export const GAVE = 1;
const D = FEATURES.length;

let weights = null;
function projections() {
  weights ??= Object.fromEntries(['Wq', 'Wk', 'Wv', 'Wo'].map((k, n) => [k, normalMatrix(D, D, 0x5a11 + n, 0.6)]));
  return weights;
}

/** Inputs for one word order: embeddings, plus the sinusoidal encoding when `positions`. */
function inputs(attn, words, positions) {
  const X = fromRows(words.map((w) => VECTORS[w]));
  if (!positions) return X;
  const P = attn.positionalEncoding(words.length, D);
  return { rows: X.rows, cols: D, data: X.data.map((v, k) => v + P.data[k]) };
}

function run(attn, words, positions) {
  const X = inputs(attn, words, positions);
  const r = attn.multiHeadAttention(X, null, { heads: 1, ...projections() });
  return { words, X, weights: r.weights[0], output: r.output };
}

const maxAbsDiff = (a, b) => a.reduce((m, v, k) => Math.max(m, Math.abs(v - b[k])), 0);

/**
 * Both orders with or without positions. gaveDiff: largest difference in
 * y_gave between the orders; swapDiff: largest difference between each
 * word's output in one order and the same word's output in the other.
 */
export function susanMaryModel(attn, { positions = false } = {}) {
  const a = run(attn, ORDERS['susan-mary'], positions);
  const b = run(attn, ORDERS['mary-susan'], positions);
  const sameWord = (i) => b.words.indexOf(a.words[i]);
  const rowsA = toRows(a.output);
  const rowsB = toRows(b.output);
  return {
    positions,
    orders: { 'susan-mary': a, 'mary-susan': b },
    gave: { 'susan-mary': row(a.output, GAVE), 'mary-susan': row(b.output, GAVE) },
    gaveDiff: maxAbsDiff(row(a.output, GAVE), row(b.output, GAVE)),
    swapDiff: Math.max(...rowsA.map((r, i) => maxAbsDiff(r, rowsB[sameWord(i)]))),
  };
}
