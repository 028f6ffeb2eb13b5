// dot-product.model.js: a user's tastes against a movie's content.
// Each feature is in [-1, 1]: for the user from strong dislike to strong
// liking, for the movie from clearly absent to strongly present.
import { fromRows } from '../../kit/mat.js';

export const FEATURES = ['action', 'romance', 'comedy'];
export const DEFAULT_USER = [-0.8, 0.6, 0.3];
export const DEFAULT_MOVIE = [-0.7, 0.8, -0.2];

/** Per-feature products and their sum, the score. */
export function dotProductModel(attn, user, movie) {
  const diagUser = fromRows(user.map((u, i) => user.map((_, j) => (i === j ? u : 0))));
  // diag(u) m^T: a 3x1 column of u_f m_f, one product per feature
  const products = Array.from(attn.matmul(diagUser, [movie], { transposeB: true }).data);
  const score = attn.matmul([user], [movie], { transposeB: true }).data[0];
  return { products, score };
}

/** How to read one feature's product: a key of dot-product.strings.en.js. */
export function reading(u, m) {
  const p = u * m;
  if (Math.abs(p) < 0.05) return 'hardlyMatters';
  if (u < 0 && m < 0) return 'dislikedAbsent';
  if (u > 0 && m > 0) return 'likedPresent';
  return u < 0 ? 'dislikedPresent' : 'likedAbsent';
}
