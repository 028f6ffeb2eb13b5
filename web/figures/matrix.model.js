// matrix.model.js: attention in matrix form, one kernel call per step, and
// a small picture treated as a set of pixels (N = pixels, d = 3: r, g, b).
import { fromRows, zeros } from './mat.js';

export const D = 3;
// Four pixels for the step-through (r, g, b in 0..1): sky, sun, grass, roof.
export const PIXELS = { names: ['sky', 'sun', 'grass', 'roof'], rgb: [[0.45, 0.7, 0.95], [0.98, 0.85, 0.25], [0.25, 0.65, 0.2], [0.8, 0.2, 0.15]] };
/** Features: each channel centred on 0 and stretched to [-1, 1]. */
export const features = (rgb) => rgb.map((c) => 2 * c - 1);
// Fixed projections: queries and keys compare colours, values keep them.
export const WQ = fromRows([[1.5, 0, 0], [0, 1.5, 0], [0, 0, 1.5]]);
export const WK = fromRows([[1.5, 0, 0], [0, 1.5, 0], [0, 0, 1.5]]);
export const WV = fromRows([[1, 0, 0], [0, 1, 0], [0, 0, 1]]);

export const STEPS = ['X', 'Q, K, V', 'QK\u1d40', 'scale by 1/\u221ad', 'softmax per row', '\u00d7 V'];

/** Every intermediate of softmax(QK^T / sqrt(d)) V, each from its own kernel call. */
export function steps(attn, X) {
  const Q = attn.matmul(X, WQ);
  const K = attn.matmul(X, WK);
  const V = attn.matmul(X, WV);
  const S = attn.matmul(Q, K, { transposeB: true }); // N x N scores
  const scale = zeros(S.cols, S.cols);
  for (let i = 0; i < S.cols; i++) scale.data[i * S.cols + i] = 1 / Math.sqrt(D);
  const scaled = attn.matmul(S, scale); // S times (1/sqrt d) I
  const P = attn.softmax(scaled);
  const Y = attn.matmul(P, V);
  return { X, Q, K, V, S, scaled, P, Y };
}

/** The four-pixel example of the step-through. */
export const smallX = () => fromRows(PIXELS.rgb.map(features));

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
