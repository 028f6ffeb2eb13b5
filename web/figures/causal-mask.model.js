// causal-mask.model.js: masks decide which keys each query may see.
//
// A mask here is a grid of n x n cells, 1 = blocked. The kernels receive it
// as the additive mask (0 keeps, -Infinity blocks), so a blocked weight is
// exactly 0 and each row's remaining weights still sum to 1; a row with no
// key left gets all-zero weights and a zero output. `step` is how many
// tokens a decoder has produced so far: only those exist yet.
import { normalMatrix } from './random.js';
import { zeros } from './mat.js';

export const TOKENS = ['<s>', 'the', 'cat', 'sat', 'on', 'the', 'mat', '<pad>'];
export const N = TOKENS.length;
const D = 8;
export const WINDOW = 3; // the sliding window sees itself and two tokens back

const RULES = {
  none: () => false,
  causal: (i, j) => j > i,
  padding: (i, j) => TOKENS[j] === '<pad>',
  'causal+padding': (i, j) => j > i || TOKENS[j] === '<pad>',
  window: (i, j) => j > i || j <= i - WINDOW,
};
export const PRESETS = [...Object.keys(RULES), 'custom'];

/** The cells of a named preset: a string of n*n '0'/'1', row-major. */
export function presetCells(name) {
  const rule = RULES[name] ?? RULES.none;
  let out = '';
  for (let i = 0; i < N; i++) for (let j = 0; j < N; j++) out += rule(i, j) ? '1' : '0';
  return out;
}

/** Cells from an attribute: a full-size string of 0/1, else the causal preset. */
export const parseCells = (text) => (typeof text === 'string' && new RegExp(`^[01]{${N * N}}$`).test(text) ? text : presetCells('causal'));

/** The cells with (i, j) flipped. */
export const flip = (cells, i, j) => cells.slice(0, i * N + j) + (cells[i * N + j] === '1' ? '0' : '1') + cells.slice(i * N + j + 1);

let params = null;
function parameters(attn) {
  if (!params) {
    const E = normalMatrix(N, D, 0xca5a);
    const P = attn.positionalEncoding(N, D);
    params = {
      X: { rows: N, cols: D, data: E.data.map((v, k) => v + P.data[k]) },
      W: Object.fromEntries(['Wq', 'Wk', 'Wv', 'Wo'].map((k, n) => [k, normalMatrix(D, D, 0xca5b + n, 0.5)])),
    };
  }
  return params;
}

/**
 * {cells, step} -> the first `step` tokens through one head of self-attention
 * under the mask: {tokens, blocked (t x t, 1 = blocked), mask, weights,
 * output, rowSums, emptyRows}.
 */
export function causalModel(attn, { cells = presetCells('causal'), step = N } = {}) {
  const t = Math.max(1, Math.min(N, Math.round(step)));
  const { X, W } = parameters(attn);
  const blocked = zeros(t, t);
  const mask = zeros(t, t);
  for (let i = 0; i < t; i++) {
    for (let j = 0; j < t; j++) {
      const b = cells[i * N + j] === '1';
      blocked.data[i * t + j] = b ? 1 : 0;
      mask.data[i * t + j] = b ? -Infinity : 0;
    }
  }
  const Xt = { rows: t, cols: D, data: X.data.slice(0, t * D) };
  const r = attn.multiHeadAttention(Xt, null, { heads: 1, ...W, mask });
  const weights = r.weights[0];
  const rowSums = Array.from({ length: t }, (_, i) => weights.data.subarray(i * t, (i + 1) * t).reduce((a, b) => a + b, 0));
  const emptyRows = rowSums.map((_, i) => i).filter((i) => blocked.data.subarray(i * t, (i + 1) * t).every((b) => b === 1));
  return { tokens: TOKENS.slice(0, t), blocked, mask, weights, output: r.output, rowSums, emptyRows };
}
