// matrix.model.js: attention in matrix form, one kernel call per step, and
// a small picture treated as a set of pixels (N = pixels, d = 3: r, g, b).
import { fromRows, zeros } from '../../kit/mat.js';
import { ExampleError } from '../../kit/example.js';
import { object, listOf, matching, numbers, label } from '../../kit/example-data.js';

export const D = 3;
// Four pixels for the step-through (r, g, b in 0..1): sky, sun, grass, roof.
export const PIXELS = { names: ['sky', 'sun', 'grass', 'roof'], rgb: [[0.45, 0.7, 0.95], [0.98, 0.85, 0.25], [0.25, 0.65, 0.2], [0.8, 0.2, 0.15]] };
/** Features: each channel centred on 0 and stretched to [-1, 1]. */
export const features = (rgb) => rgb.map((c) => 2 * c - 1);
// Fixed projections: queries and keys compare colours (or any d features), values keep them.
const identity = (d, k) => fromRows(Array.from({ length: d }, (_, i) => Array.from({ length: d }, (__, j) => (i === j ? k : 0))));
export const projections = (d) => ({ WQ: identity(d, 1.5), WK: identity(d, 1.5), WV: identity(d, 1) });
export const { WQ, WK, WV } = projections(D);

// The stepper's steps, as keys of matrix.strings.en.js.
export const STEPS = ['stepX', 'stepQKV', 'stepScores', 'stepScale', 'stepSoftmax', 'stepMix'];

/** Every intermediate of softmax(QK^T / sqrt(d)) V for X (N x d), each from its own kernel call. */
export function steps(attn, X) {
  const { WQ, WK, WV } = projections(X.cols);
  const Q = attn.matmul(X, WQ);
  const K = attn.matmul(X, WK);
  const V = attn.matmul(X, WV);
  const S = attn.matmul(Q, K, { transposeB: true }); // N x N scores
  const scale = zeros(S.cols, S.cols);
  for (let i = 0; i < S.cols; i++) scale.data[i * S.cols + i] = 1 / Math.sqrt(X.cols);
  const scaled = attn.matmul(S, scale); // S times (1/sqrt d) I
  const P = attn.softmax(scaled);
  const Y = attn.matmul(P, V);
  return { X, Q, K, V, S, scaled, P, Y };
}

/** The four-pixel example of the step-through. */
export const smallX = () => fromRows(PIXELS.rgb.map(features));

export const EXAMPLE_TOKENS = [2, 8]; // N: how many tokens a page's example may have
export const EXAMPLE_FEATURES = 6; // d: at most this many features per token
export const TOKEN_MAX = 8; // letters (a Chinese character counts two), so eight columns of them fit 360 px

/**
 * A page's own tokens and vectors, {tokens: [...], vectors: [[...], ...]}:
 * 2 to 8 tokens of 1 to 8 letters (repeats allowed, as in a sentence),
 * one vector each, all of the same length d (1 to 6), numbers in [-1, 1]
 * like the pixels' centred colours. -> {names, X (N x d)}, or throws an ExampleError.
 */
export function parseExample(data) {
  object(data, ['tokens', 'vectors']);
  const names = listOf(data, 'tokens', ...EXAMPLE_TOKENS).map((t, i) => label(t, `tokens[${i}]`, TOKEN_MAX));
  const vectors = matching(data, 'vectors', 'tokens');
  const d = Array.isArray(vectors[0]) ? vectors[0].length : 0;
  if (d < 1 || d > EXAMPLE_FEATURES) throw new ExampleError('exampleList', { field: 'vectors[0]', min: 1, max: EXAMPLE_FEATURES, got: d });
  return { names, X: fromRows(vectors.map((v, i) => numbers(v, `vectors[${i}]`, d, -1, 1))) };
}

// The picture: 12 x 12 pixels of sky, sun, house and grass.
export const SIDE = 12;
export function picture() {
  const px = [];
  for (let y = 0; y < SIDE; y++) {
    for (let x = 0; x < SIDE; x++) {
      let c = [0.45, 0.7, 0.95]; // sky
      if ((x - 9) ** 2 + (y - 2) ** 2 <= 3) c = [0.98, 0.85, 0.25]; // sun
      if (y >= 8) c = [0.25, 0.65, 0.2]; // grass
      if (x >= 2 && x <= 6 && y >= 5 && y <= 8) c = [0.85, 0.75, 0.55]; // wall
      if (y === 4 && x >= 2 && x <= 6) c = [0.8, 0.2, 0.15]; // roof
      if (y === 3 && x >= 3 && x <= 5) c = [0.8, 0.2, 0.15];
      if (x === 4 && y >= 7 && y <= 8) c = [0.35, 0.2, 0.12]; // door
      px.push(c);
    }
  }
  return px;
}

/** Self-attention over the picture: X is N x 3 with N = SIDE * SIDE pixels. */
export function pictureAttention(attn) {
  const rgb = picture();
  const X = fromRows(rgb.map(features));
  const Q = attn.matmul(X, WQ);
  const K = attn.matmul(X, WK);
  const V = attn.matmul(X, WV);
  const { weights, output } = attn.attention(Q, K, V);
  return { rgb, X, weights, output };
}
