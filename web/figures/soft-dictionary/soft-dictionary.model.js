// soft-dictionary.model.js: attention as a dictionary that answers every
// query with a blend of all its values.
//
// Keys are points in the plane, each holding a colour (r, g, b) as its
// value. The score of a key is minus its squared distance to the query, so
// the nearest key matches best. That score is a dot product with one extra
// coordinate: -|q-k|^2 = 2 q.k - |k|^2 - |q|^2, and the |q|^2 term is the
// same for every key, which softmax ignores. So the query row is (qx, qy, 1)
// and each key row (2kx, 2ky, -|k|^2), and the kernel's attention with
// scale 1/T does the rest.
import { fromRows, row } from '../../kit/mat.js';
import { leaders, pcts } from '../../kit/format.js';
import { object, listOf, matching, numbers, label, distinct } from '../../kit/example-data.js';

export const ENTRIES = [
  { name: 'cherry', at: [-0.6, 0.55], value: [0.86, 0.12, 0.22] },
  { name: 'lemon', at: [0.55, 0.6], value: [0.98, 0.86, 0.2] },
  { name: 'sea', at: [0.65, -0.5], value: [0.1, 0.45, 0.8] },
  { name: 'moss', at: [-0.55, -0.6], value: [0.3, 0.62, 0.2] },
  { name: 'plum', at: [0, 0], value: [0.5, 0.22, 0.6] },
];

/** The exact-match dictionary beside it: a Map from "x,y" to the value. */
export const keyString = ([x, y]) => `${x.toFixed(2)},${y.toFixed(2)}`;
export const hardDictionary = (entries = ENTRIES) => new Map(entries.map((e) => [keyString(e.at), e.value]));

/** Query the soft dictionary at point `query` with temperature T. */
export function softLookup(attn, query, T, entries = ENTRIES) {
  const Q = [[query[0], query[1], 1]];
  const K = fromRows(entries.map(({ at: [x, y] }) => [2 * x, 2 * y, -(x * x + y * y)]));
  const V = fromRows(entries.map((e) => e.value));
  const { output, weights } = attn.attention(Q, K, V, { scale: 1 / T });
  const w = row(weights, 0);
  const best = w.indexOf(Math.max(...w));
  return { weights: w, result: row(output, 0), best };
}

/** Index of the key nearest to the query (the hard dictionary's best match). */
export function nearest(query, entries = ENTRIES) {
  const d = entries.map(({ at }) => (at[0] - query[0]) ** 2 + (at[1] - query[1]) ** 2);
  return d.indexOf(Math.min(...d));
}

/**
 * Where the soft lookup's weight went, as a key of soft-dictionary.strings.en.js
 * and its arguments (entry indices, the printed share); a tie at the printed
 * precision names no winner.
 */
export function largestShare(weights, entries = ENTRIES) {
  const printed = pcts(weights);
  const top = leaders(weights, printed);
  const share = printed[top[0]];
  if (top.length === entries.length) return { key: 'noneStandsOut', share };
  if (top.length > 1) return { key: 'sharedLargest', tied: top, share };
  return { key: 'largestWeight', entry: top[0], share };
}

export const EXAMPLE_KEYS = [2, 8]; // how many entries a page's example may have
export const LABEL_MAX = 12; // characters, so a label fits beside its key in the plane

/**
 * A page's own dictionary, {keys: [[x, y], ...], values: [[r, g, b], ...],
 * labels: [...]}: 2 to 8 keys in [-1, 1]^2 (the plane shows -1.2..1.2),
 * each distinct at the 2 decimals the Map's keys are written with; colour
 * values in [0, 1]; labels of 1 to 12 characters, all different.
 * -> entries like ENTRIES, or throws an ExampleError.
 */
export function parseExample(data) {
  object(data, ['keys', 'values', 'labels']);
  const keys = listOf(data, 'keys', ...EXAMPLE_KEYS).map((k, i) => numbers(k, `keys[${i}]`, 2, -1, 1));
  const values = matching(data, 'values', 'keys').map((v, i) => numbers(v, `values[${i}]`, 3, 0, 1));
  const labels = matching(data, 'labels', 'keys').map((t, i) => label(t, `labels[${i}]`, LABEL_MAX));
  distinct(keys.map(keyString), 'keys');
  distinct(labels, 'labels');
  return keys.map((at, i) => ({ name: labels[i], at, value: values[i] }));
}

const clampQuery = (v) => Math.max(-1.2, Math.min(1.2, v));
/** "x,y" -> the query point, each coordinate clamped to the plane; null when the text is not two numbers. */
export function parseQuery(text) {
  const v = String(text ?? '').split(',').map((t) => (t.trim() === '' ? NaN : Number(t)));
  return v.length === 2 && v.every(Number.isFinite) ? v.map((x) => +clampQuery(x).toFixed(3)) : null;
}
