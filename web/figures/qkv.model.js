// qkv.model.js: users ask (queries), movies answer (keys) and are what is
// returned (values). Three users and three movies, each described by the
// same three features; W^Q, W^K and W^V (3x3) are the reader's to edit.
import { fromRows, identity } from './mat.js';

export const FEATURES = ['action', 'romance', 'comedy'];
export const USERS = { names: ['Ana', 'Ben', 'Cy'], rows: [[0.9, -0.5, 0.2], [-0.6, 0.8, 0.4], [-0.2, -0.4, 0.9]] };
export const MOVIES = { names: ['Heist', 'Paris', 'Prank'], rows: [[1, 0.1, -0.3], [-0.4, 1, 0.2], [0, -0.2, 1]] };
export const MATRICES = ['Wq', 'Wk', 'Wv'];

/** Default weights: identity, so queries, keys and values start as the raw features. */
export const defaultWeights = () => Object.fromEntries(MATRICES.map((k) => [k, identity(3)]));

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
