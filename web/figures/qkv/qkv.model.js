// qkv.model.js: users ask (queries), movies answer (keys) and are what is
// returned (values). Three users and three movies, each described by the
// same three features; W^Q, W^K and W^V (3x3) are the reader's to edit.
import { fromRows, identity, toRows } from '../../kit/mat.js';
import { leaders, pcts } from '../../kit/format.js';

export const FEATURES = ['action', 'romance', 'comedy'];
export const USERS = { names: ['Ana', 'Ben', 'Cy'], rows: [[0.9, -0.5, 0.2], [-0.6, 0.8, 0.4], [-0.2, -0.4, 0.9]] };
export const MOVIES = { names: ['Heist', 'Paris', 'Prank'], rows: [[1, 0.1, -0.3], [-0.4, 1, 0.2], [0, -0.2, 1]] };
export const MATRICES = ['Wq', 'Wk', 'Wv'];
export const LIMIT = 2; // each weight stays in [-2, 2]
/** The editable weights, as the cell attribute names them: "q.1.1" .. "v.3.3" (row, column from 1). */
export const CELLS = ['q', 'k', 'v'].flatMap((m) => [1, 2, 3].flatMap((i) => [1, 2, 3].map((j) => `${m}.${i}.${j}`)));

/** Default weights: identity, so queries, keys and values start as the raw features. */
export const defaultWeights = () => Object.fromEntries(MATRICES.map((k) => [k, identity(3)]));

/** "a,b,c;d,e,f;g,h,i" -> a 3x3 matrix (the identity for '' or anything that is not nine numbers), clamped to the limit. */
export function parseWeight(text) {
  const rows = String(text ?? '').split(';').map((r) => r.split(',').map((t) => (t.trim() === '' ? NaN : Number(t))));
  const ok = rows.length === 3 && rows.every((r) => r.length === 3 && r.every(Number.isFinite));
  if (!ok) return identity(3);
  return fromRows(rows.map((r) => r.map((v) => +Math.max(-LIMIT, Math.min(LIMIT, v)).toFixed(2))));
}

/** A 3x3 matrix -> its attribute text. */
export const formatWeight = (W) => toRows(W).map((r) => r.map((v) => +v.toFixed(2)).join(',')).join(';');

/** The canonical text of a weight attribute: '' for the identity (the default) or anything unreadable. */
export const normalizeWeight = (text) => readWeight(text) ?? '';

/** normalizeWeight, but null for text that is neither empty nor nine numbers (what a weight attribute cannot use). */
export function readWeight(text) {
  if (String(text ?? '').trim() === '') return '';
  const rows = String(text).split(';').map((r) => r.split(',').map((t) => (t.trim() === '' ? NaN : Number(t))));
  if (!(rows.length === 3 && rows.every((r) => r.length === 3 && r.every(Number.isFinite)))) return null;
  const t = formatWeight(parseWeight(text));
  return t === formatWeight(identity(3)) ? '' : t;
}

/**
 * Which movie each user's weights favour, one per user, as a key of
 * qkv.strings.en.js and its arguments: {key: 'favourite', user, movie, share}
 * or, for a tie at the printed precision (no winner named),
 * {key: 'favouriteTie', user, movies, share}.
 */
export function favourites(weights) {
  return toRows(weights).map((w, j) => {
    const printed = pcts(w);
    const top = leaders(w, printed);
    const [user, share] = [USERS.names[j], printed[top[0]]];
    return top.length > 1 ? { key: 'favouriteTie', user, movies: top.map((i) => MOVIES.names[i]), share }
      : { key: 'favourite', user, movie: MOVIES.names[top[0]], share };
  });
}

/** Q = Xu W^Q, K = Xm W^K, V = Xm W^V, then attention: the ideal movie per user. */
export function qkvModel(attn, W = defaultWeights()) {
  const Xu = fromRows(USERS.rows);
  const Xm = fromRows(MOVIES.rows);
  const Q = attn.matmul(Xu, W.Wq);
  const K = attn.matmul(Xm, W.Wk);
  const V = attn.matmul(Xm, W.Wv);
  const { output, weights } = attn.attention(Q, K, V);
  return { Xu, Xm, Q, K, V, weights, output };
}
