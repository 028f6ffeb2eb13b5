// basic.model.js: attention with no parameters at all. Four pixels, each an
// (R, G, B) vector centred on 0 (-1 = none of that channel, +1 = full). The
// weights are softmax(X X^T) row by row, each output a weighted sum of the
// inputs: Y = softmax(X X^T) X, which is attention with Q = K = V = X and
// scale 1.
import { fromRows, toRows } from '../../kit/mat.js';
import { leaders, pcts } from '../../kit/format.js';
import { object, listOf, matching, numbers, label, distinct } from '../../kit/example-data.js';

export const FEATURES = ['R', 'G', 'B'];
export const NAMES = ['red', 'orange', 'blue', 'teal'];
export const DEFAULT_X = [
  [1, -0.6, -0.6],
  [1, 0.2, -0.8],
  [-0.8, -0.4, 1],
  [-0.6, 0.6, 0.6],
];
export const LIMIT = 1; // each channel stays in [-1, 1]
export const EXAMPLE_TOKENS = [2, 8]; // how many inputs a page's example may have
export const TOKEN_MAX = 10; // characters, so the names fit beside the matrices at 360 px

const readable = (rows) => rows.length >= EXAMPLE_TOKENS[0] && rows.length <= EXAMPLE_TOKENS[1]
  && rows.every((r) => r.length === 3 && r.every((v) => Number.isFinite(v) && Math.abs(v) <= LIMIT));
const rowsOf = (text) => (typeof text === 'string' && text !== '' ? text.split(';').map((r) => r.split(',').map(Number)) : []);

/**
 * "r,g,b;r,g,b;..." -> rows, as many as `base` has (the figure's own pixels
 * or a page's vectors); `base` itself when the text does not fit.
 */
export function parseInputs(text, base = DEFAULT_X) {
  const rows = rowsOf(text);
  return readable(rows) && rows.length === base.length ? rows : base.map((r) => r.slice());
}

/** Rows -> the attribute text parseInputs reads. */
export const formatInputs = (rows) => rows.map((r) => r.map((v) => +v.toFixed(2)).join(',')).join(';');

/**
 * The canonical text of the x attribute: 2 to 8 rows of r,g,b (a page's
 * example may have other than four inputs); '' for the default pixels or
 * anything unreadable.
 */
export const normalizeInputs = (text) => readInputs(text) ?? '';

/** normalizeInputs, but null for text that is neither empty nor 2 to 8 rows of r,g,b (what the x attribute cannot use). */
export function readInputs(text) {
  if (String(text ?? '').trim() === '') return '';
  const rows = rowsOf(text);
  if (!readable(rows)) return null;
  const t = formatInputs(rows);
  return t === formatInputs(DEFAULT_X) ? '' : t;
}

/**
 * A page's own inputs, {tokens: [...], vectors: [[r, g, b], ...]}: 2 to 8
 * different tokens of 1 to 10 characters, each with three numbers in
 * [-1, 1] (the figure shows every vector as a colour, -1 none of a channel,
 * +1 full). -> {names, rows}, or throws an ExampleError.
 */
export function parseExample(data) {
  object(data, ['tokens', 'vectors']);
  const names = listOf(data, 'tokens', ...EXAMPLE_TOKENS).map((t, i) => label(t, `tokens[${i}]`, TOKEN_MAX));
  distinct(names, 'tokens');
  const rows = matching(data, 'vectors', 'tokens').map((v, i) => numbers(v, `vectors[${i}]`, 3, -LIMIT, LIMIT));
  return { names, rows };
}

/**
 * Where the largest weight of row j (`w`, pixel j's weights) sits, as a
 * string key of basic.strings.en.js and its arguments (pixel indices and the
 * printed share). A tie at the printed precision names no winner. When
 * another pixel wins, it is because its dot product with pixel j is larger
 * than pixel j's with itself: it reaches further along pixel j's direction.
 */
export function largestWeight(w, j) {
  const printed = pcts(w);
  const top = leaders(w, printed);
  if (top.length > 1) return { key: 'largestTie', tied: top, share: printed[top[0]] };
  const [i] = top;
  return i === j ? { key: 'largestSelf', pixel: j } : { key: 'largestOther', winner: i, pixel: j };
}

/** The colour a centred (R, G, B) vector stands for. */
export function swatch(v) {
  const c = v.map((x) => Math.round(255 * Math.min(1, Math.max(0, (x + 1) / 2))));
  return `rgb(${c.join(' ')})`;
}

/**
 * Run the figure's example: rows of X -> {X, weights, output, rowSums,
 * dominant}. dominant[j] is the input with the largest weight in row j.
 */
export function basicModel(attn, rows = DEFAULT_X) {
  const X = fromRows(rows);
  const { output, weights } = attn.attention(X, X, X, { scale: 1 });
  const W = toRows(weights);
  return {
    X,
    weights,
    output,
    rowSums: W.map((r) => r.reduce((a, b) => a + b, 0)),
    dominant: W.map((r) => r.indexOf(Math.max(...r))),
    colors: { inputs: rows.map(swatch), outputs: toRows(output).map(swatch) },
  };
}
